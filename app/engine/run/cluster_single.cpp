// The cluster of a build without MPI: one process, never active (app/engine/run/cluster.h).
#include <cstdlib>
#include <stdexcept>

#include "app/engine/run/cluster.h"

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
std::string Cluster::broadcast(const std::string& s) { return s; }
void Cluster::send(int, int, const std::string&) { throw std::logic_error("Cluster::send without MPI"); }
bool Cluster::poll(int&, int&, std::string&) { return false; }
void Cluster::abort(int code) { std::exit(code); }

}  // namespace cz
