// One dyadic block of Algorithm 11 (lines 12–17, spec §7.4): sorted queries Qs and sorted keys Ks
// (key word; value word as load) → for every sorted query p, the word [found_p] ++ value_p, where
// found_p = [some key of the block equals Qs[p]] and value_p is that key's value (zero when not
// found). Two circuits compute it:
//   block_pbs    C = pbs-key-values(Qs, Ks) (Alg. 10, pbs.h); then Zoology line 17: C[p] < m and
//                Ks[C[p]] == Qs[p], with Ks[C[p]] (and its value) taken by a MUX tree on C[p].
//                O(m²·d) gates per block (data-dependent key ranges need selection).
//   block_merge  spec §7.5: Batcher odd-even merge of Qs and Ks on (word, tag) with tag 0 for
//                queries, so ties put the query first; a suffix scan gives every position the
//                first key at or after it, i.e. Ks[C[p]] for query p (the same C as pbs); one
//                equality test; answers return to the query half by the merge run backwards.
//                O(m log m · d) gates, depth O(log m · log d).
#pragma once
#include <vector>

#include "constructions/mqar/dyadic_gadgets.h"
#include "constructions/mqar/pbs.h"

namespace cz::mqarc {

std::vector<dy::Bits> block_pbs(dy::Builder& b, const std::vector<dy::Rec>& Qs, const std::vector<dy::Rec>& Ks,
                                PbsVariant v, PbsCount* count, std::vector<PbsCallTrace>* calls = nullptr,
                                std::size_t x0 = 0);
std::vector<dy::Bits> block_merge(dy::Builder& b, const std::vector<dy::Rec>& Qs, const std::vector<dy::Rec>& Ks,
                                  std::size_t* comparators);
// The C array of eq (12) from the same merge (each key carries its sorted position j; a query's
// next key gives C = j, or m when there is none): spec §7.5's claim that the merge "computes the
// same C as pbs", checked in tests. |Q| = |K| = m, a power of two.
std::vector<dy::Bits> merge_key_values(dy::Builder& b, const std::vector<dy::Bits>& Q, const std::vector<dy::Bits>& K);

}  // namespace cz::mqarc
