// app/report/human_format.h: counts, parameters, cells and wrapped lines of the human output (issue 39).
#include <doctest/doctest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "app/report/human_format.h"

using namespace cz;

TEST_CASE("human format: counts past 7 digits read as 6.4e85") {
  CHECK(short_count("0") == "0");
  CHECK(short_count("4374") == "4374");
  CHECK(short_count("9999999") == "9999999");
  CHECK(short_count("16777216") == "1.7e7");
  CHECK(short_count("99500000") == "1.0e8");  // rounds up into the next power of ten
  CHECK(short_count("64" + std::string(84, '0')) == "6.4e85");
  CHECK(short_count("6449" + std::string(82, '9')) == "6.4e85");
  CHECK(short_count("not a count") == "not a count");
  CHECK(short_count(std::uint64_t{18446744073709551615ull}) == "1.8e19");
  CHECK(short_count_json(nlohmann::json("123456789012")) == "1.2e11");
  CHECK(short_count_json(nlohmann::json(42)) == "42");
}

TEST_CASE("human format: the parameters a construction uses") {
  const nlohmann::json p = {{"N", 64}, {"c", 0}, {"instance", -1}, {"kv", 8}, {"layout", "triples"}, {"n", 3}, {"power_a", "0.01"}};
  CHECK(params_text("mqar/attention", p, false) == "layout=triples n=3 c=0 instance=-1");
  CHECK(params_text("mqar/attention", p, true) == "n=3");
  nlohmann::json z = p;
  z["layout"] = "zoology";
  CHECK(params_text("mqar/attention", z, true) == "layout=zoology N=64 kv=8");
  CHECK(params_text("mqar/attention", z, false) == "layout=zoology c=0 N=64 kv=8 power_a=0.01 instance=-1");
  CHECK(params_text("no/such", {{"a", 1}, {"b", "x"}}, true) == "a=1 b=x");
}

TEST_CASE("human format: cells cut and lines wrapped by columns, not bytes") {
  CHECK(display_width("→✓ab") == 4);
  CHECK(cut_to("abcdef", 6) == "abcdef");
  CHECK(cut_to("abc def", 5) == "abc…");
  CHECK(cut_to("→→→→→", 3) == "→→…");
  CHECK(pad_to("✓", 3) == "✓  ");
  std::ostringstream os;
  print_wrapped(os, "  note: ", "one two three four", 4, 16);
  CHECK(os.str() == "  note: one two\n    three four\n");
  std::ostringstream two;
  print_wrapped(two, "", "a  b c", 0, 80);
  CHECK(two.str() == "a  b c\n");  // two spaces between fields stay two
  CHECK(shorten_numbers("2^300 = " + std::string("2037035976334486086268445688409378161051468393665936250636140449354381299763336706183397376") +
                        " inputs, 123456789012 ok") == "2^300 = 2.0e90 inputs, 123456789012 ok");
  CHECK(fields_text(nlohmann::json{{"b", 1}, {"a", "x"}, {"size", 7}, {"o", {{"k", true}}}}, {"size"}) == "size=7 a=x b=1 o=(k=true)");
}
