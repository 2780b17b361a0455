// The ranks of a run under mpirun (issue 13), or one process. Only cluster_mpi.cpp includes
// <mpi.h>; a build without MPI (CZ_MPI off) links cluster_single.cpp, where the cluster is never
// active and every call is the one-process answer.
//
// Under mpirun every rank runs the same command: all build the same artifact and check (both are
// deterministic), take blocks from one counter on rank 0 (MPI one-sided fetch-and-add, so a slow
// rank takes fewer blocks and holds nobody back), and reduce their counts and smallest failing
// index; rank 0 rebuilds that counterexample and writes the report. A rank that dies or throws
// aborts the whole job (MPI_Abort): never a partial "verified".
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/engine/engine.h"

namespace cz {

class Cluster {
 public:
  // Starts MPI when this process was launched by mpirun/srun (and the build has MPI); call once,
  // first thing in main. Without MPI, or when launched directly, the cluster stays inactive.
  static void init(int* argc, char*** argv);
  static void finalize();  // collective; a no-op when inactive
  static bool active();    // more than one rank, or launched by an MPI launcher
  static int rank();       // 0 when inactive
  static int size();       // 1 when inactive
  // Ranks on this node (threads per rank default to cores / this).
  static unsigned local_size();
  // Collective: one block counter over [begin, end) shared by all ranks; each rank takes `grab`
  // instances at a time from it and hands them to its threads `block` at a time.
  static std::unique_ptr<BlockSource> shared_blocks(std::uint64_t begin, std::uint64_t end, std::uint64_t block,
                                                    std::uint64_t grab);
  // Collective: the sum of the failed counts and the smallest failing index over all ranks.
  static BlockResult reduce(const BlockResult& mine);
  // Collective: every rank's string, in rank order, on rank 0 (other ranks get an empty vector).
  static std::vector<std::string> gather(const std::string& mine);
  // Collective: rank 0's value of `rc` on every rank.
  static int broadcast(int rc);
  // Collective: rank 0's string on every rank.
  static std::string broadcast(const std::string& s);
  // Point-to-point messages (issue 38: the SAT scheduler, app/engine/sat/sat_schedule.cpp): a string
  // with a tag (0..99) to one rank, and a message that has arrived from any rank, without waiting
  // (false when none). One thread of a rank makes these calls at a time.
  static void send(int to, int tag, const std::string& data);
  static bool poll(int& from, int& tag, std::string& data);
  // Ends every rank with exit status `code` (a rank that cannot go on must not leave the others
  // waiting in a collective).
  [[noreturn]] static void abort(int code);
};

}  // namespace cz
