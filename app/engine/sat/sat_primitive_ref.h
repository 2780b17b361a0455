// Reference side of the integer tasks under --method sat (issue 27): the primitives' semantics as
// src/tasks/primitive_semantics.h states them (sem::shift_down, sem::cumsum, ...), and the prefix
// maps of circuit/to-model, run generically over a ring: over the symbolic words of
// circuits/sat/bitvec.h they build the reference's gates, over Z they give the exact expected
// output that confirms a SAT model. Never from a construction's weights. It lives in app/engine,
// not circuits/reference, because it reads the task definitions (src/tasks) and their parameters
// (src/verify), which the circuits floor may not include (tests/layering).
#pragma once
#include <string>

#include "circuits/sat/bitvec.h"
#include "exact/rings.h"
#include "tasks/primitive_semantics.h"
#include "tensor/matrix.h"
#include "verify/params.h"

namespace cz::circuits::reference {

// The primitive tasks (verify/task_primitives.cpp) and circuit/to-model's prefix sources.
bool is_integer_map(const std::string& task);

// y = task(u) by the definition; p holds the task's parameters (s, t, f, fs where they apply).
template <Ring R>
Matrix<typename R::Elem> integer_map(const std::string& task, const Params& p, const R& r, const Matrix<typename R::Elem>& u) {
  if (task == "identity") return sem::identity(r, u);
  if (task == "shift_down") return sem::shift_down(r, u, p.u("s"));
  if (task == "shift_up") return sem::shift_up(r, u, p.u("s"));
  if (task == "cumsum") return sem::cumsum(r, u);
  if (task == "add") return sem::add_blocks(r, u);
  if (task == "hadamard") return sem::hadamard_blocks(r, u);
  if (task == "remember") {
    const std::size_t fs = p.u("fs");
    const std::string f = p.s("f");
    return sem::remember(r, u, p.u("s"), p.u("t"), [&](const auto& piece) {
      if (f == "cumsum") return sem::cumsum(r, piece);
      if (f == "identity") return sem::identity(r, piece);
      return sem::shift_down(r, piece, fs);
    });
  }
  if (task == "prefix-sum" || task == "prefix-product") {  // column 0: y[i] = u[0] op ... op u[i]
    const bool sum = task == "prefix-sum";
    Matrix<typename R::Elem> y(u.rows(), u.cols(), r.zero());
    auto acc = sum ? r.zero() : r.one();
    for (std::size_t i = 0; i < u.rows(); ++i) {
      acc = sum ? r.add(acc, u(i, 0)) : r.mul(acc, u(i, 0));
      y(i, 0) = acc;
    }
    return y;
  }
  throw std::invalid_argument("integer_map: unknown task " + task);
}

}  // namespace cz::circuits::reference
