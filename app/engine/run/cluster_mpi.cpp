// The cluster under mpirun (app/engine/run/cluster.h), with OpenMPI or any MPI-3 library.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "app/engine/run/cluster.h"

namespace cz {

namespace {
bool g_active = false;
int g_rank = 0, g_size = 1;
unsigned g_local = 1;

// Launched by an MPI launcher: OpenMPI's mpirun, a PMI (MPICH, Slurm's srun) or PMIx.
bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(v)) return true;
  return false;
}

// Blocks from one counter in rank 0's memory. Each rank fetches `grab` instances at a time (one
// MPI_Fetch_and_op, under a lock: the library is initialised MPI_THREAD_SERIALIZED) and hands
// them to its threads `block` at a time.
class SharedBlocks final : public BlockSource {
 public:
  SharedBlocks(std::uint64_t begin, std::uint64_t end, std::uint64_t block, std::uint64_t grab)
      : end_(end), block_(std::max<std::uint64_t>(1, block)), grab_(std::max(grab, block_)) {
    // MPI_Win_allocate, not MPI_Win_create: OpenMPI's shared-memory one-sided component (osc/sm,
    // one node) only serves windows whose memory the library allocated.
    const MPI_Aint bytes = g_rank == 0 ? sizeof(std::uint64_t) : 0;
    MPI_Win_allocate(bytes, sizeof(std::uint64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &counter_, &win_);
    MPI_Win_lock_all(0, win_);
    if (g_rank == 0) {
      *counter_ = begin;
      MPI_Win_sync(win_);
    }
    MPI_Barrier(MPI_COMM_WORLD);  // rank 0's counter is set before anyone fetches from it
  }
  ~SharedBlocks() override {
    MPI_Win_unlock_all(win_);
    MPI_Win_free(&win_);  // collective: every rank has finished taking blocks
  }
  bool next(std::uint64_t& lo, std::uint64_t& n) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (cur_ >= lim_) {
      if (stopped_) return false;
      std::uint64_t old = 0;
      MPI_Fetch_and_op(&grab_, &old, MPI_UINT64_T, 0, 0, MPI_SUM, win_);
      MPI_Win_flush(0, win_);
      if (old >= end_) {
        stopped_ = true;
        return false;
      }
      cur_ = old;
      lim_ = std::min(end_, old + grab_);
    }
    lo = cur_;
    n = std::min(block_, lim_ - cur_);
    cur_ += n;
    return true;
  }
  void stop() override {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
    cur_ = lim_;
  }

 private:
  std::uint64_t* counter_ = nullptr;  // rank 0: the next instance not yet taken by any rank
  const std::uint64_t end_, block_, grab_;
  MPI_Win win_{};
  std::mutex mu_;
  std::uint64_t cur_ = 0, lim_ = 0;  // this rank's grabbed range not yet handed out
  bool stopped_ = false;
};
}  // namespace

void Cluster::init(int* argc, char*** argv) {
  if (!launched_by_mpi()) return;
  int provided = 0;
  MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
  if (provided < MPI_THREAD_SERIALIZED) {
    // Threads take blocks under a lock, one MPI call at a time: the library must allow that.
    std::fputs("error: the MPI library does not offer MPI_THREAD_SERIALIZED (mpirun)\n", stderr);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_rank, MPI_INFO_NULL, &node);
  int local = 1;
  MPI_Comm_size(node, &local);
  MPI_Comm_free(&node);
  g_local = static_cast<unsigned>(std::max(1, local));
  g_active = true;
}

void Cluster::finalize() {
  int done = 0;
  if (g_active && (MPI_Finalized(&done), !done)) MPI_Finalize();
  g_active = false;
}

bool Cluster::active() { return g_active; }
int Cluster::rank() { return g_rank; }
int Cluster::size() { return g_size; }
unsigned Cluster::local_size() { return g_local; }

std::unique_ptr<BlockSource> Cluster::shared_blocks(std::uint64_t begin, std::uint64_t end, std::uint64_t block,
                                                    std::uint64_t grab) {
  if (!g_active) return nullptr;
  return std::make_unique<SharedBlocks>(begin, end, block, grab);
}

BlockResult Cluster::reduce(const BlockResult& mine) {
  if (!g_active) return mine;
  std::uint64_t failed = 0, first = mine.first ? *mine.first : UINT64_MAX, min_first = 0;
  MPI_Allreduce(&mine.failed, &failed, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&first, &min_first, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  BlockResult all;
  all.failed = failed;
  if (min_first != UINT64_MAX) all.first = min_first;
  return all;
}

std::vector<std::string> Cluster::gather(const std::string& mine) {
  if (!g_active) return {mine};
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(g_rank == 0 ? g_size : 0), offsets;
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string all;
  if (g_rank == 0) {
    int at = 0;
    for (int l : lens) {
      offsets.push_back(at);
      at += l;
    }
    all.resize(static_cast<std::size_t>(at));
  }
  MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (int r = 0; g_rank == 0 && r < g_size; ++r)
    out.push_back(all.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(r)]), static_cast<std::size_t>(lens[static_cast<std::size_t>(r)])));
  return out;
}

int Cluster::broadcast(int rc) {
  if (g_active) MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return rc;
}

std::string Cluster::broadcast(const std::string& s) {
  if (!g_active) return s;
  unsigned long long n = s.size();
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  std::string out = g_rank == 0 ? s : std::string(static_cast<std::size_t>(n), '\0');
  // In pieces below 2^31 bytes (MPI counts are int).
  for (unsigned long long at = 0; at < n;) {
    const int len = static_cast<int>(std::min<unsigned long long>(n - at, 1ull << 30));
    MPI_Bcast(out.data() + at, len, MPI_CHAR, 0, MPI_COMM_WORLD);
    at += static_cast<unsigned long long>(len);
  }
  return out;
}

void Cluster::send(int to, int tag, const std::string& data) {
  MPI_Send(data.data(), static_cast<int>(data.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

bool Cluster::poll(int& from, int& tag, std::string& data) {
  int flag = 0;
  MPI_Status st;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
  if (!flag) return false;
  int n = 0;
  MPI_Get_count(&st, MPI_CHAR, &n);
  data.assign(static_cast<std::size_t>(n), '\0');
  MPI_Recv(data.data(), n, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  from = st.MPI_SOURCE;
  tag = st.MPI_TAG;
  return true;
}

void Cluster::abort(int code) {
  if (g_active) MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

}  // namespace cz
