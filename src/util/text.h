// Text helpers for messages about untrusted input (issue 9): a file's bytes never reach the
// terminal raw. printable() keeps valid UTF-8 (non-ASCII letters stay readable) and writes control
// bytes and bytes that are not valid UTF-8 as \xHH; long text is cut with "...". escape_bytes() is
// the same rule on the whole text (names and flag values echoed by the CLI). One sanitiser: the
// CLI's former copy (util/escape.h) decided UTF-8 validity the same way and was merged here (issue 26).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace cz {

// Length of the valid UTF-8 sequence starting at s[i] (1..4), or 0 when the bytes there are not
// valid UTF-8 (overlong forms, surrogates and code points above U+10FFFF are invalid).
inline std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c >= 0xE0 && c <= 0xEF) { n = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
  else if (c >= 0xF0 && c <= 0xF4) { n = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
  else return 0;
  if (i + n > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  return n;
}

inline bool is_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence_length(s, i);
    if (!n) return false;
    i += n;
  }
  return true;
}

// `s` with control bytes, DEL and bytes that are not valid UTF-8 written as \xHH, cut after about
// max_bytes of input ("..." appended when cut).
inline std::string printable(std::string_view s, std::size_t max_bytes = 80) {
  static const char* hex = "0123456789abcdef";
  std::string r;
  std::size_t i = 0;
  for (; i < s.size() && i < max_bytes;) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const std::size_t n = utf8_sequence_length(s, i);
    if (n > 1) {
      r.append(s.substr(i, n));
      i += n;
    } else if (n == 1 && c >= 0x20 && c != 0x7f) {
      r += static_cast<char>(c);
      ++i;
    } else {
      r += "\\x";
      r += hex[c >> 4];
      r += hex[c & 15];
      ++i;
    }
  }
  if (i < s.size()) r += "...";
  return r;
}

// printable() without the cut: the whole of `s` on one terminal line.
inline std::string escape_bytes(std::string_view s) { return printable(s, std::string_view::npos); }

// A value echoed in a message (a name, a flag's value, a number from a file): escaped and cut, so
// that an error line never carries a 100 KB value whole (issue 36 item 14). The one rule for
// quoting user text in messages; model/model_json.h json_brief is the same for JSON values.
inline constexpr std::size_t kQuotedMax = 64;
inline std::string quoted_value(std::string_view s) { return printable(s, kQuotedMax); }

// escape_bytes() cut to at most max_out bytes of output ("..." included): the CLI's last guard on
// the length of an error line, whatever a message quoted.
inline std::string printable_within(std::string_view s, std::size_t max_out) {
  std::string r = escape_bytes(s);
  if (r.size() <= max_out) return r;
  std::size_t cut = max_out > 3 ? max_out - 3 : 0;
  while (cut > 0 && (static_cast<unsigned char>(r[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
  r.resize(cut);
  return r + "...";
}

}  // namespace cz
