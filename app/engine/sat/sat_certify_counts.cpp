#include "app/engine/sat/sat_certify_counts.h"

#include <mutex>
#include <string>

#include "util/error.h"

namespace cz {

namespace {
std::mutex g_mu;
CertifyCounts g_remote;
}  // namespace

CertifyCounts& CertifyCounts::operator+=(const CertifyCounts& b) {
  certified += b.certified, lemmas += b.lemmas, core += b.core, rat += b.rat, seconds += b.seconds;
  return *this;
}

CertifyCounts CertifyCounts::operator-(const CertifyCounts& b) const {
  return {certified - b.certified, lemmas - b.lemmas, core - b.core, rat - b.rat, seconds - b.seconds};
}

nlohmann::json certify_counts_json(const CertifyCounts& c) {
  return {{"certified", c.certified}, {"lemmas", c.lemmas}, {"core", c.core}, {"rat", c.rat}, {"seconds", c.seconds}};
}

CertifyCounts certify_counts_of(const nlohmann::json& j, const std::string& where) {
  CertifyCounts c;
  auto count = [&](const char* k) {
    if (!j.is_object() || !j.contains(k) || !j[k].is_number_unsigned()) throw InputError(std::string("certify counts want \"") + k + "\" (a count)", where);
    return j[k].get<std::size_t>();
  };
  c.certified = count("certified"), c.lemmas = count("lemmas"), c.core = count("core"), c.rat = count("rat");
  if (!j.contains("seconds") || !j["seconds"].is_number() || !(j["seconds"].get<double>() >= 0))
    throw InputError("certify counts want \"seconds\" (>= 0)", where);
  c.seconds = j["seconds"].get<double>();
  return c;
}

CertifyCounts& thread_certify_counts() {
  thread_local CertifyCounts c;
  return c;
}

void add_remote_certify_counts(const CertifyCounts& c) {
  std::lock_guard<std::mutex> lk(g_mu);
  g_remote += c;
}

CertifyCounts take_remote_certify_counts() {
  std::lock_guard<std::mutex> lk(g_mu);
  const CertifyCounts c = g_remote;
  g_remote = {};
  return c;
}

}  // namespace cz
