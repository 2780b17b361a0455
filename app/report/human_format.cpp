#include "app/report/human_format.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "verify/construction.h"

namespace cz {

std::string short_count(const std::string& decimal) {
  if (decimal.empty() || decimal.find_first_not_of("0123456789") != std::string::npos) return decimal;
  const auto first = decimal.find_first_not_of('0');
  if (first == std::string::npos) return "0";
  const std::string s = decimal.substr(first);
  if (s.size() <= 7) return s;
  int m = (s[0] - '0') * 10 + (s[1] - '0') + (s[2] >= '5' ? 1 : 0);
  std::size_t exp = s.size() - 1;
  if (m == 100) {
    m = 10;
    ++exp;
  }
  return std::to_string(m / 10) + "." + std::to_string(m % 10) + "e" + std::to_string(exp);
}

std::size_t human_columns() {
  static const std::size_t cols = [] {
    if (const char* env = std::getenv("COLUMNS")) {
      const std::string v = env;
      if (!v.empty() && v.size() <= 6 && v.find_first_not_of("0123456789") == std::string::npos) {
        const std::size_t n = std::stoul(v);
        if (n >= 20) return n;
      }
    }
    for (int fd : {1, 2}) {
      struct winsize ws {};
      if (::isatty(fd) && ::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return static_cast<std::size_t>(ws.ws_col);
    }
    return std::size_t{80};
  }();
  return cols;
}

std::string human_number(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  if (std::fabs(x) < 9e15 && x == std::floor(x)) return std::to_string(static_cast<long long>(x));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", x);  // d.dde±XX: 3 significant digits, rounded
  const double r = std::strtod(buf, nullptr);
  const int exp = static_cast<int>(std::floor(std::log10(std::fabs(r))));
  if (exp >= 6 || exp < -3) {  // 6.26e5, 1.23e-4
    std::string s = buf;
    const auto e = s.find('e');
    std::string mant = s.substr(0, e);
    while (mant.back() == '0') mant.pop_back();
    if (mant.back() == '.') mant.pop_back();
    return mant + "e" + std::to_string(exp);
  }
  // Fixed with the decimals 3 significant digits need (none for 123, 2 for 1.23, 5 for 0.00123).
  std::snprintf(buf, sizeof buf, "%.*f", std::max(0, 2 - exp), r);
  std::string s = buf;
  const std::string kept = s;  // 0.99994 -> "1.00", not "1": a rounded value does not pass for an integer
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s.find('.') == std::string::npos ? kept : s;
}

std::string short_count(std::uint64_t n) { return short_count(std::to_string(n)); }

std::string short_count_json(const nlohmann::json& count) {
  if (count.is_string()) return short_count(count.get<std::string>());
  if (count.is_number_unsigned()) return short_count(count.get<std::uint64_t>());
  if (count.is_number_integer() && count.get<std::int64_t>() >= 0)
    return short_count(static_cast<std::uint64_t>(count.get<std::int64_t>()));
  return count.dump();
}

namespace {
std::string value_text(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

const Construction* known(const std::string& name) {
  for (const auto& c : registry())
    if (c.name == name) return &c;
  return nullptr;
}

// Integers whose default 0 or -1 means "derived" (c = 0: from n; t = 0: the lags needed;
// instance = -1: the worst case): at that default they say nothing a reader needs.
bool automatic_default(const ParamSpec& s, const std::string& value) {
  return s.kind == ParamSpec::Integer && value == s.default_value && (value == "0" || value == "-1");
}
}  // namespace

std::string params_text(const std::string& construction, const nlohmann::json& params, bool compact) {
  std::string out;
  auto add = [&out](const std::string& k, const std::string& v) { out += (out.empty() ? "" : " ") + k + "=" + v; };
  if (!params.is_object()) return out;
  const Construction* c = known(construction);
  if (!c) {
    for (auto it = params.begin(); it != params.end(); ++it) add(it.key(), value_text(*it));
    return out;
  }
  std::map<std::string, std::string> values;
  for (auto it = params.begin(); it != params.end(); ++it) values[it.key()] = value_text(*it);
  for (const auto& s : c->params) {
    const auto it = values.find(s.name);
    if (it == values.end() || !param_applies(s, values)) continue;
    if (compact && (automatic_default(s, it->second) || (s.kind == ParamSpec::Choice && it->second == s.default_value)))
      continue;
    add(s.name, it->second);
  }
  // Keys the schema does not name (none today) are shown rather than hidden.
  for (const auto& [k, v] : values) {
    bool in_schema = false;
    for (const auto& s : c->params) in_schema |= s.name == k;
    if (!in_schema) add(k, v);
  }
  return out;
}

std::string fields_text(const nlohmann::json& v, const std::vector<std::string>& first) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_unsigned() || v.is_number_integer()) return short_count_json(v);
  if (v.is_number_float()) return human_number(v.get<double>());
  if (v.is_array()) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
      s += (i ? ", " : "") + (v[i].is_object() ? "(" + fields_text(v[i]) + ")" : fields_text(v[i]));
    return s + "]";
  }
  if (!v.is_object()) return v.dump();
  std::string s;
  auto add = [&](const std::string& k, const nlohmann::json& x) {
    s += (s.empty() ? "" : " ") + k + "=" + (x.is_object() ? "(" + fields_text(x) + ")" : fields_text(x));
  };
  for (const auto& k : first)
    if (v.contains(k)) add(k, v[k]);
  for (auto it = v.begin(); it != v.end(); ++it)
    if (std::find(first.begin(), first.end(), it.key()) == first.end()) add(it.key(), *it);
  return s;
}

std::size_t display_width(const std::string& s) {
  std::size_t w = 0;
  for (unsigned char ch : s) w += (ch & 0xC0) != 0x80;
  return w;
}

std::string cut_to(const std::string& s, std::size_t width) {
  if (display_width(s) <= width) return s;
  if (width == 0) return "";
  std::size_t cols = 0, i = 0;
  for (; i < s.size(); ++i) {
    const bool starts = (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
    if (starts && ++cols == width) break;  // room for the ellipsis at column WIDTH
  }
  std::string head = s.substr(0, i);
  while (!head.empty() && head.back() == ' ') head.pop_back();
  return head + "…";
}

std::string pad_to(const std::string& s, std::size_t width) {
  const std::size_t w = display_width(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

std::string shorten_numbers(const std::string& text) {
  std::string out, digits;
  auto flush = [&] {
    out += digits.size() > 12 ? short_count(digits) : digits;
    digits.clear();
  };
  for (char ch : text) {
    if (ch >= '0' && ch <= '9') {
      digits += ch;
    } else {
      flush();
      out += ch;
    }
  }
  flush();
  return out;
}

void print_wrapped(std::ostream& os, const std::string& prefix, const std::string& text, std::size_t indent,
                   std::size_t width) {
  if (width == 0) width = human_columns();
  // Words with the spaces before them: kept within a line (two spaces between fields stay two),
  // dropped where the line breaks.
  std::vector<std::pair<std::string, std::string>> words;
  std::string gap, word;
  for (char ch : text) {
    if (ch == ' ') {
      if (!word.empty()) {
        words.emplace_back(gap, word);
        gap.clear();
        word.clear();
      }
      gap += ch;
    } else {
      word += ch;
    }
  }
  if (!word.empty()) words.emplace_back(gap, word);
  std::string line = prefix;
  std::size_t cols = display_width(prefix);
  bool line_has_word = false;
  for (const auto& [space, w] : words) {
    const std::size_t ww = display_width(w);
    if (line_has_word && cols + space.size() + ww > width) {
      os << line << "\n";
      line = std::string(indent, ' ');
      cols = indent;
      line_has_word = false;
    }
    if (line_has_word) {
      line += space;
      cols += space.size();
    }
    line += w;
    cols += ww;
    line_has_word = true;
  }
  os << line << "\n";
}

}  // namespace cz
