#include "circuits/sat/solve_hook.h"

#include <atomic>

namespace cz::circuits::sat {

namespace {
std::atomic<SolveHook*> g_hook{nullptr};
thread_local std::string t_label;
thread_local const CubeOf* t_cube = nullptr;
}  // namespace

void set_solve_hook(SolveHook* h) { g_hook = h; }
SolveHook* solve_hook() { return g_hook.load(); }

MiterLabel::MiterLabel(std::string what) : prev_(std::move(t_label)) { t_label = std::move(what); }
MiterLabel::~MiterLabel() { t_label = std::move(prev_); }
const std::string& MiterLabel::current() { return t_label; }

ForwardSlot& forward_slot() {
  thread_local ForwardSlot slot;
  return slot;
}

CubeLabel::CubeLabel(const CubeOf* c) : prev_(t_cube) { t_cube = c; }
CubeLabel::~CubeLabel() { t_cube = prev_; }
const CubeOf* CubeLabel::current() { return t_cube; }

}  // namespace cz::circuits::sat
