#include "circuits/aig_match.h"

#include <map>

#include "circuits/aig.h"
#include "circuits/aig_strash.h"

namespace cz::circuits {

namespace {

// name -> position, or "" with why set when a name repeats.
bool index_names(const std::vector<std::string>& names, const char* what, std::map<std::string, std::size_t>& out,
                 std::string& why) {
  for (std::size_t k = 0; k < names.size(); ++k)
    if (!out.emplace(names[k], k).second) {
      why = std::string(what) + " name '" + names[k] + "' appears twice";
      return false;
    }
  return true;
}

}  // namespace

JointAig joint_aig(const Circuit& a, const Circuit& b) {
  JointAig j;
  const Aig A = to_aig(a), B = to_aig(b);
  j.a_ands = A.ands.size();
  j.b_ands = B.ands.size();
  // Distinct names on both sides, so matching inputs by name is a bijection (two inputs of b under
  // one name would be identified: another function).
  std::map<std::string, std::size_t> ain, bin, aout, bout;
  if (!index_names(A.input_names, "input", ain, j.why) || !index_names(B.input_names, "input", bin, j.why) ||
      !index_names(A.output_names, "output", aout, j.why) || !index_names(B.output_names, "output", bout, j.why))
    return j;
  if (B.num_inputs != A.num_inputs) {
    j.why = std::to_string(B.num_inputs) + " inputs, not " + std::to_string(A.num_inputs);
    return j;
  }
  if (B.outputs.size() != A.outputs.size()) {
    j.why = std::to_string(B.outputs.size()) + " outputs, not " + std::to_string(A.outputs.size());
    return j;
  }
  // a's nodes first (they are strashed already, so each keeps its own node), then b's over a's
  // inputs.
  const std::uint32_t I = A.num_inputs;
  j.inputs = I;
  AigStrash joint(I);
  std::vector<std::uint32_t> alit(1 + I + A.ands.size()), blit(1 + I + B.ands.size());
  auto through = [](const std::vector<std::uint32_t>& map, std::uint32_t l) { return map[l >> 1] ^ (l & 1); };
  for (std::uint32_t i = 0; i <= I; ++i) alit[i] = 2 * i;
  for (std::size_t k = 0; k < A.ands.size(); ++k)
    alit[1 + I + k] = joint.and_(through(alit, A.ands[k].first), through(alit, A.ands[k].second));
  blit[0] = 0;
  for (std::uint32_t i = 0; i < I; ++i) {
    auto it = ain.find(B.input_names[i]);
    if (it == ain.end()) {
      j.why = "input '" + B.input_names[i] + "' is not an input of the other circuit";
      return j;
    }
    blit[1 + i] = 2 * (1 + static_cast<std::uint32_t>(it->second));
  }
  for (std::size_t k = 0; k < B.ands.size(); ++k)
    blit[1 + I + k] = joint.and_(through(blit, B.ands[k].first), through(blit, B.ands[k].second));
  for (const auto& [name, kb] : bout) {
    auto it = aout.find(name);
    if (it == aout.end()) {
      j.why = "output '" + name + "' is not an output of the other circuit";
      j.output_names.clear(), j.out_a.clear(), j.out_b.clear();
      return j;
    }
    j.output_names.push_back(name);
    j.out_a.push_back(through(alit, A.outputs[it->second]));
    j.out_b.push_back(through(blit, B.outputs[kb]));
  }
  j.ands = std::move(joint.ands());
  return j;
}

AigMatch aig_match(const Circuit& a, const Circuit& b) { return aig_match(joint_aig(a, b)); }

AigMatch aig_match(const JointAig& j) {
  AigMatch m;
  m.ands_a = j.a_ands;
  m.ands_b = j.b_ands;
  m.why = j.why;
  if (!m.why.empty()) return m;
  m.ands_joint = j.ands.size();
  for (std::size_t k = 0; k < j.output_names.size(); ++k) {
    if (j.out_b[k] == j.out_a[k]) ++m.same;
    else if (m.differ.size() < 8) m.differ.push_back(j.output_names[k]);
  }
  m.outputs = j.output_names.size();
  return m;
}

}  // namespace cz::circuits
