// The sd task for a user's model or circuit file (issue 15): a file has one input length, so it
// is checked on domain=sized (|A| = a, |B| = b: N = copies·(a + b + 1) rows of d = n + 1
// columns, the Remark G.14 layout repeated by the prompt), and its output is decoded as Alg. 3's
// (JRT Thm G.15): every flag (column n) is 0 or 1, the element bits of a flagged row are 0 or 1,
// and the elements of the flagged rows, as a set, must be A ∩ B (so A and B intersect iff some
// row is flagged).
#pragma once
#include <map>
#include <string>

#include "verify/task.h"

namespace cz {

TaskShapeNeed sd_file_shape(const Params& p);
// n from the file's width (d = n + 1) and domain=sized, where -p does not say.
void sd_file_fill(std::map<std::string, std::string>& given, std::size_t N, std::size_t d);
Check sd_file_check(const Params& p, const TaskArtifact& a, const DomainOptions& o);

}  // namespace cz
