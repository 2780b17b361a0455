#include "app/cli/arg_checks.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "app/cli/commands.h"
#include "app/engine/device_path.h"
#include "util/error.h"

namespace cz::cli {

std::uint64_t parse_uint_arg(const std::string& text, const UintArg& a, ArgNames names) {
  return parse_uint_flag(text, a.name(names), a.min, a.max);
}

void check_verify_domain(bool exhaustive, bool samples_given, const std::string& device, ArgNames names) {
  const std::string ex = names == ArgNames::Cli ? "--exhaustive" : "exhaustive", samples = kSamplesArg.name(names);
  if (exhaustive && samples_given) throw InputError(ex + " and " + samples + " exclude each other", samples);
  check_device_flag(device);
}

double parse_power_a(const std::string& text, ArgNames names) {
  const std::string flag = names == ArgNames::Cli ? "--power-a" : "power_a";
  char* end = nullptr;
  errno = 0;
  const double a = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || errno == ERANGE || !std::isfinite(a) || !(a > 0))
    throw InputError(flag + " must be a finite positive number", flag + " " + text);
  return a;
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
