// The ledger's row groups (one file per subject) and what they share: the cached context, the
// fast flag, the sample size of big domains in fast mode, and add (status from evidence, progress).
#pragma once
#include <optional>
#include <vector>

#include "model/kmatrix_projection.h"
#include "proofs-checks/ledger/ledger_rules.h"

namespace cz::ledger::detail {

struct Rows {
  Ctx& cx;
  bool fast;
  std::optional<std::uint64_t> fs;
  std::vector<Entry>& out;
  void add(Entry e);
  static Entry row(int n, std::string source, std::string statement);
};

void rows_definitions(Rows& r);
void row_kmatrix(Rows& r);
void rows_basics(Rows& r);
void rows_zoo(Rows& r);
void rows_mqar(Rows& r);
void rows_sd(Rows& r);
void rows_errata(Rows& r);
void rows_declared(Rows& r);

}  // namespace cz::ledger::detail
