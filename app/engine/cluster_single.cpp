// The cluster of a build without MPI: one process, never active (app/engine/cluster.h).
#include <cstdlib>

#include "app/engine/cluster.h"

namespace cz {

void Cluster::init(int*, char***) {}
void Cluster::finalize() {}
bool Cluster::active() { return false; }
int Cluster::rank() { return 0; }
int Cluster::size() { return 1; }
unsigned Cluster::local_size() { return 1; }
std::unique_ptr<BlockSource> Cluster::shared_blocks(std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t) { return nullptr; }
BlockResult Cluster::reduce(const BlockResult& mine) { return mine; }
std::vector<std::string> Cluster::gather(const std::string& mine) { return {mine}; }
int Cluster::broadcast(int rc) { return rc; }
void Cluster::abort(int code) { std::exit(code); }

}  // namespace cz
