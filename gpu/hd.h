// Kernel bodies are CZ_HD functions (util/hd.h): the GPU runs them, and the CPU twin runs the
// same text in CI (issue 12).
#pragma once
#include "util/hd.h"
