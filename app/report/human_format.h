// Pieces of the human (non --json) output: counts people can read, the parameters a construction
// uses, cells cut to a width and notes wrapped to it (issue 39). The exact values stay in the JSON.
#pragma once
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace cz {

// The width human output had before issue 49 item 6 (kept for old callers; use human_columns()).
inline constexpr std::size_t kHumanColumns = 120;
// The columns human output fits (rows, wrapped notes, --help) unless asked for --wide (issue 49
// item 6): $COLUMNS when it is a whole number >= 20, else the width of the terminal that stdout
// (or stderr) is, else 80. Read once per process.
std::size_t human_columns();

// A number as people read it (issue 49 item 5; the JSON keeps full precision): an integral value
// as an integer ("24704", not "24704.0"), else 3 significant digits ("625733" -> "6.26e5" past 6
// digits, "2.57", "0.00123"); NaN and infinities as "nan", "inf", "-inf".
std::string human_number(double x);

// A count as people read it: exact up to 7 digits ("1572864"), else two significant digits and an
// exponent ("6.4e85"; rounded half up). DECIMAL is a non-negative decimal integer; other text is
// returned as it is.
std::string short_count(const std::string& decimal);
std::string short_count(std::uint64_t n);
// A JSON count (a number, or a decimal string past 2^63): short_count of its digits.
std::string short_count_json(const nlohmann::json& count);

// The parameters of a report as "KEY=VALUE ..." in the construction's schema order, leaving out
// the ones that mean nothing for these values (ParamSpec::when, e.g. zoology's N in the triples
// layout). compact also leaves out integers at an automatic default of 0 or -1 ("0: derived") and
// choices at their default. A construction the registry does not know: every key, in JSON order.
std::string params_text(const std::string& construction, const nlohmann::json& params, bool compact);

// A JSON value as people read it: an object as "key=value ..." (the keys in FIRST first, then the
// others in order), a nested object as "(key=value ...)", an array as "[a, b]", strings unquoted,
// counts past 7 digits as short_count gives them. For stats lines instead of one JSON blob.
std::string fields_text(const nlohmann::json& v, const std::vector<std::string>& first = {});

// TEXT with every run of more than 12 digits as short_count gives it ("2^300 = 2.0e90 inputs").
std::string shorten_numbers(const std::string& text);

// Columns a UTF-8 string takes on a terminal (one per code point).
std::size_t display_width(const std::string& s);
// S cut to at most WIDTH columns, ending in "…" when cut.
std::string cut_to(const std::string& s, std::size_t width);
// S padded with spaces to WIDTH columns (never cut).
std::string pad_to(const std::string& s, std::size_t width);
// TEXT after PREFIX, wrapped at spaces so that no line passes WIDTH columns (a word longer than a
// line is kept whole); lines after the first are indented by INDENT spaces.
// WIDTH 0: human_columns().
void print_wrapped(std::ostream& os, const std::string& prefix, const std::string& text, std::size_t indent,
                   std::size_t width = 0);

}  // namespace cz
