// parse_json_input and read_json_file (model/model_json.h): the one JSON reader of user files.
// nlohmann's own DOM parser keeps the last of two equal keys and learns a value's size only after
// storing it, so the text is checked in one pass first (depth, string lengths, number of values)
// and then parsed by the SAX builder below, which refuses a repeated key where it occurs.
#include <algorithm>
#include <utility>
#include <nlohmann/json.hpp>

#include "model/model_json.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/text.h"

namespace cz {
using json = nlohmann::json;

namespace {

// One pass over the text before nlohmann sees it: nesting depth, string lengths and the number of
// values (brackets, quotes and commas inside strings do not count). Malformed text is left to the
// parser's own message.
void check_json_limits(const std::string& text, const std::string& source, const JsonLimits& limits) {
  std::size_t depth = 0, line = 1, string_start = 0, values = 1;
  bool in_string = false;
  const auto at = [&] { return source + ":" + std::to_string(line); };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      if (ch == '\\') ++i;  // the escaped character never ends the string
      else if (ch == '"') in_string = false;
      if (limits.max_string && i - string_start > limits.max_string)
        throw InputError("a JSON string longer than " + std::to_string(limits.max_string) + " bytes", at());
      continue;
    }
    if (ch == '"') {
      in_string = true;
      string_start = i + 1;
    } else if (ch == '[' || ch == '{' || ch == ',') {
      // Every value after the first of its container follows a comma; the first follows a bracket.
      if (limits.max_values && ++values > limits.max_values)
        throw InputError("more than " + std::to_string(limits.max_values) + " JSON values (array entries and object members), the limit for this file",
                         at());
      if (ch != ',' && ++depth > limits.max_depth)
        throw InputError("JSON nested deeper than " + std::to_string(limits.max_depth) + " levels", at());
    } else if (ch == ']' || ch == '}') {
      if (depth) --depth;
    } else if (ch == '\n') {
      ++line;
    }
  }
}

// nlohmann's SAX interface, building the same json as json::parse, except that a key given twice
// in one object is an InputError (where: the source and the object's path, e.g. m.json.layers[0]),
// and that with keep_keys the other members of the top-level object are skipped unstored.
class Builder {
 public:
  Builder(const std::string& source, const std::vector<std::string>& keep) : source_(source), keep_(keep) {}
  json result;
  std::size_t error_at = 0;
  std::string error;

  bool null() { return put(json(nullptr)); }
  bool boolean(bool v) { return put(json(v)); }
  bool number_integer(json::number_integer_t v) { return put(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return put(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) { return put(json(v)); }
  bool string(json::string_t& v) { return put(json(std::move(v))); }
  bool binary(json::binary_t& v) { return put(json(json::binary_t(std::move(v)))); }
  bool start_object(std::size_t) { return open(json::object()); }
  bool start_array(std::size_t) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(json::string_t& k) {
    if (skip_) return true;
    json& top = *stack_.back();
    if (stack_.size() == 1 && !keep_.empty() && std::find(keep_.begin(), keep_.end(), k) == keep_.end()) {
      skip_next_ = true;  // a top-level member no one reads: never stored
      return true;
    }
    if (top.contains(k))
      throw InputError("duplicate key " + json_brief(json(k)) + " in one JSON object (each key once: which one is meant?)", source_ + path());
    key_ = std::move(k);
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const json::exception& e) {
    error_at = position;
    error = e.what();
    return false;
  }

 private:
  // The path of the innermost open container, as model readers name fields (".layers[0]").
  std::string path() const {
    std::string p;
    for (const auto& s : segments_) p += s;
    return p;
  }
  json* insert(json&& v) {
    if (stack_.empty()) {
      result = std::move(v);
      return &result;
    }
    json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    return &(top[key_] = std::move(v));
  }
  bool put(json&& v) {
    if (skip_ || std::exchange(skip_next_, false)) return true;
    insert(std::move(v));
    return true;
  }
  bool open(json&& v) {
    if (skip_ || std::exchange(skip_next_, false)) {
      ++skip_;
      return true;
    }
    if (!stack_.empty())
      segments_.push_back(stack_.back()->is_array() ? "[" + std::to_string(stack_.back()->size()) + "]" : "." + printable(key_, 40));
    stack_.push_back(insert(std::move(v)));
    return true;
  }
  bool close() {
    if (skip_) {
      --skip_;
      return true;
    }
    stack_.pop_back();
    if (!segments_.empty() && segments_.size() >= stack_.size()) segments_.pop_back();
    return true;
  }
  const std::string& source_;
  const std::vector<std::string>& keep_;
  std::vector<json*> stack_;  // open containers; a parent is not changed while a child is open
  std::vector<std::string> segments_;
  std::string key_;
  std::size_t skip_ = 0;  // depth inside a skipped member
  bool skip_next_ = false;
};

}  // namespace

json parse_json_input(const std::string& text, const std::string& source, const JsonLimits& limits) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(text.empty() ? "empty input: no JSON value" : "blank input (only white space): no JSON value", source);
  check_json_limits(text, source, limits);
  Builder b(source, limits.keep_keys);
  try {
    if (json::sax_parse(text, &b)) return std::move(b.result);
  } catch (const json::exception& e) {
    throw InputError("malformed JSON: " + printable(e.what(), 200), source);
  }
  // nlohmann's message quotes the bytes it last read: escape them; where = source:line.
  const std::size_t upto = std::min<std::size_t>(b.error_at ? b.error_at - 1 : 0, text.size());
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(upto), '\n'));
  throw InputError("malformed JSON: " + printable(b.error, 200), source + ":" + std::to_string(line));
}

json read_json_file(const std::string& path, std::uint64_t max_bytes, const std::string& what, const JsonLimits& limits) {
  return parse_json_input(read_file(path, TextLimits{max_bytes, what}), path, limits);
}

}  // namespace cz
