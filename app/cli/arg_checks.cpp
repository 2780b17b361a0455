#include "app/cli/arg_checks.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "app/cli/commands.h"
#include "app/engine/run/device_path.h"
#include "util/error.h"
#include "util/text.h"

namespace cz::cli {

std::uint64_t parse_uint_arg(const std::string& text, const UintArg& a, ArgNames names) {
  return parse_uint_flag(text, a.name(names), a.min, a.max);
}

void check_verify_domain(bool exhaustive, bool samples_given, const std::string& device, ArgNames names) {
  const std::string ex = names == ArgNames::Cli ? "--exhaustive" : "exhaustive", samples = kSamplesArg.name(names);
  if (exhaustive && samples_given) throw InputError(ex + " and " + samples + " exclude each other", samples);
  check_device_flag(device);
}

namespace {
// TEXT as a finite double, or nullopt (strtod alone takes "nan", "inf", "0x1p3" and " 5").
std::optional<double> finite_number(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  if (*end || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}
std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}
}  // namespace

double parse_real_arg(const std::string& text, const RealArg& a, ArgNames names) {
  const std::optional<double> v = finite_number(text);
  if (!v || *v < a.min || *v > a.max)
    throw InputError(std::string(a.name(names)) + " must be a finite number from " + number_text(a.min) + " to " + number_text(a.max),
                     std::string(a.name(names)) + " " + quoted_value(text));
  return *v;
}

double parse_power_a(const std::string& text, ArgNames names) {
  const std::string flag = names == ArgNames::Cli ? "--power-a" : "power_a";
  const std::optional<double> a = finite_number(text);
  if (!a || !(*a > 0)) throw InputError(flag + " must be a finite positive number", flag + " " + quoted_value(text));
  return *a;
}

zoology::Batch mqar_batch(const zoology::MqarConfig& cfg, const std::string& power_a_text, ArgNames names) {
  try {
    return zoology::multiquery_ar(cfg);  // InputError on zoology's asserts (and numpy's)
  } catch (const InputError& e) {
    if (e.where.rfind("zoology multiquery_ar: power_a", 0) == 0)
      throw InputError(e.what(), std::string(names == ArgNames::Cli ? "--power-a " : "power_a ") + power_a_text);
    throw;
  }
}

}  // namespace cz::cli
