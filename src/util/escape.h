// Text that echoes user input (file names, flag values, tokens) safely on one terminal line:
// control bytes, DEL and bytes that are not part of valid UTF-8 become \xNN; valid UTF-8 and a
// backslash stay as they are.
#pragma once
#include <string>

namespace cz {

inline std::string escape_bytes(const std::string& s) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  auto esc = [&](unsigned char c) {
    out += "\\x";
    out += hex[c >> 4];
    out += hex[c & 15];
  };
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7f) esc(c);
      else out += static_cast<char>(c);
      ++i;
      continue;
    }
    // a well-formed UTF-8 sequence (no overlongs, no surrogates, at most U+10FFFF) is kept
    std::size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    bool ok = n && i + n <= s.size();
    for (std::size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    if (ok && n >= 3) {
      const auto c1 = static_cast<unsigned char>(s[i + 1]);
      if (c == 0xe0 && c1 < 0xa0) ok = false;  // overlong
      if (c == 0xed && c1 >= 0xa0) ok = false;  // surrogate
      if (c == 0xf0 && c1 < 0x90) ok = false;  // overlong
      if (c == 0xf4 && c1 >= 0x90) ok = false;  // above U+10FFFF
    }
    if (!ok) {
      esc(c);
      ++i;
      continue;
    }
    out.append(s, i, n);
    i += n;
  }
  return out;
}

}  // namespace cz
