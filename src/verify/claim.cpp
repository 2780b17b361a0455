#include "verify/claim.h"

namespace cz {

Claim evaluate(Claim c) {
  c.holds.reset();
  if (c.kind == "asymptotic" || !c.claimed_value || !c.achieved.is_number()) return c;
  const double a = c.achieved.get<double>(), v = static_cast<double>(*c.claimed_value);
  if (c.kind == "exact") c.holds = a == v;
  else if (c.kind == "upper_bound") c.holds = a <= v;
  return c;
}

Claim paper_claim(std::string quantity, std::string claimed, std::optional<long long> value, std::string kind,
                  std::string source, nlohmann::json achieved, std::string note) {
  Claim c;
  c.quantity = std::move(quantity);
  c.claimed = std::move(claimed);
  c.claimed_value = value;
  c.kind = std::move(kind);
  c.source = std::move(source);
  c.achieved = std::move(achieved);
  c.note = std::move(note);
  return evaluate(std::move(c));
}

Claim our_claim(std::string quantity, long long value, std::string kind, std::string source,
                nlohmann::json achieved, std::string note) {
  Claim c = paper_claim(std::move(quantity), std::to_string(value), value, std::move(kind), std::move(source),
                        std::move(achieved), std::move(note));
  c.binding = true;
  return c;
}

Claim shape_claim(std::string quantity, std::string claimed, double shape_value, std::string source,
                  nlohmann::json achieved, std::string note) {
  Claim c = paper_claim(std::move(quantity), std::move(claimed), std::nullopt, "asymptotic", std::move(source),
                        std::move(achieved), std::move(note));
  c.shape_value = shape_value;
  return c;
}

nlohmann::json to_json(const Claim& c) {
  nlohmann::json j = {{"quantity", c.quantity}, {"claimed", c.claimed}, {"kind", c.kind},
                      {"achieved", c.achieved}, {"source", c.source}, {"binding", c.binding}};
  j["holds"] = c.holds ? nlohmann::json(*c.holds) : nlohmann::json(nullptr);
  j["status"] = !c.holds ? "shown" : (*c.holds ? "met" : (c.binding ? "FAILED" : "missed"));
  if (c.claimed_value) j["claimed_value"] = *c.claimed_value;
  if (c.shape_value) j["shape_value"] = *c.shape_value;
  if (!c.note.empty()) j["note"] = c.note;
  return j;
}

}  // namespace cz
