#include "circuits/sat/solve_hook.h"

#include <atomic>

namespace cz::circuits::sat {

namespace {
std::atomic<SolveHook*> g_hook{nullptr};
thread_local std::string t_label;
}  // namespace

void set_solve_hook(SolveHook* h) { g_hook = h; }
SolveHook* solve_hook() { return g_hook.load(); }

MiterLabel::MiterLabel(std::string what) : prev_(std::move(t_label)) { t_label = std::move(what); }
MiterLabel::~MiterLabel() { t_label = std::move(prev_); }
const std::string& MiterLabel::current() { return t_label; }

}  // namespace cz::circuits::sat
