// libFuzzer harness: the .npy int64 reader (tasks/npy.h), then write -> read back.
#include "fuzz/fuzz_common.h"
#include "tasks/npy.h"

void fuzz_one(const std::string& text) {
  cz::npy::Int64Array a = cz::npy::parse_int64(text, "fuzz.npy");
  cz::npy::Int64Array back = cz::npy::parse_int64(cz::npy::to_bytes(a), "roundtrip.npy");
  if (back.shape != a.shape || back.data != a.data) cz::fuzz::finding(".npy write -> read changed the array");
}
