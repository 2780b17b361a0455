// CUDA launches of the modular model (see modmodel_launch.h). Every kernel is a grid-stride loop
// over a flat index calling one CZ_HD body; the twin (gpu/modmodel_check.cpp) loops over the same
// bodies on the CPU. Scratch: one ModScratch (mod_scratch_words) per (instance, prime) of a batch.
#include <algorithm>
#include <cstdint>

#include "gpu/cuda_util.cuh"
#include "gpu/modmodel_launch.h"
#include "gpu/warp_tally.cuh"

namespace cz::gpu {

namespace {

using u64 = std::uint64_t;
constexpr int kThreads = 256;
static_assert(kThreads % 32 == 0, "flush_tally needs whole warps");

__device__ u64 flat_index() { return u64(blockIdx.x) * blockDim.x + threadIdx.x; }
__device__ u64 flat_stride() { return u64(gridDim.x) * blockDim.x; }
unsigned blocks_for(u64 n) { return static_cast<unsigned>(std::min<u64>((n + kThreads - 1) / kThreads, u64{1} << 20)); }

__device__ ModScratch scratch_of(const ModModelView& v, std::uint32_t* scratch, u64 inst, int q) {
  return mod_scratch(v, scratch + (inst * v.primes + q) * v.scratch_words);
}

// Per instance: tokens (keys | vals | qs, 3 × kMaxTriples) and reference answers.
__global__ void k_triples(TriplesSource s, u64 k0, u64 count, std::int32_t* tok, std::int32_t* ans, std::uint32_t* bad) {
  for (u64 t = flat_index(); t < count; t += flat_stride()) {
    std::int32_t* T = tok + t * 3 * kMaxTriples;
    triples_draw(s, k0 + t, T, T + kMaxTriples, T + 2 * kMaxTriples);
    triples_reference(s.shape.n, T, T + kMaxTriples, T + 2 * kMaxTriples, ans + t * kMaxTriples);
    bad[t] = 0;
  }
}

__global__ void k_input_mqar(const ModModelView* vp, ModCodec c, u64 count, const std::int32_t* tok, std::uint32_t* scratch) {
  const ModModelView& v = *vp;
  const u64 per = u64(v.Np) * v.dp, n = count * v.primes * per;
  for (u64 e = flat_index(); e < n; e += flat_stride()) {
    const u64 iq = e / per, r = (e % per) / v.dp, j = e % v.dp;
    const std::int32_t* T = tok + (iq / v.primes) * 3 * kMaxTriples;
    scratch[iq * v.scratch_words + e % per] =
        mod_input_entry(v, c, T, T + kMaxTriples, T + 2 * kMaxTriples, static_cast<std::int32_t>(r), static_cast<std::int32_t>(j));
  }
}

__global__ void k_input_random(const ModModelView* vp, u64 t0, u64 count, u64 seed, std::int64_t bound, std::uint32_t* scratch) {
  const ModModelView& v = *vp;
  const u64 per = u64(v.Np) * v.dp, n = count * v.primes * per;
  for (u64 e = flat_index(); e < n; e += flat_stride()) {
    const u64 iq = e / per, r = (e % per) / v.dp, j = e % v.dp;
    const std::int32_t i = static_cast<std::int32_t>(r), jj = static_cast<std::int32_t>(j);
    scratch[iq * v.scratch_words + e % per] =
        (i < v.N && jj < v.d) ? mod_of(mod_random_entry(seed, t0 + iq / v.primes, i, jj, bound), v.p[iq % v.primes]) : 0u;
  }
}

// BaseConv projection a = x·W + b1 (one thread per entry).
__global__ void k_proj(const ModModelView* vp, int l, u64 count, std::uint32_t* scratch) {
  const ModModelView& v = *vp;
  const u64 per = u64(v.Np) * v.dp, n = count * v.primes * per;
  for (u64 e = flat_index(); e < n; e += flat_stride()) {
    const u64 iq = e / per;
    const int q = static_cast<int>(iq % v.primes);
    const ModLayerOff& o = v.layer[l][q];
    ModScratch s = scratch_of(v, scratch, iq / v.primes, q);
    const std::int32_t i = static_cast<std::int32_t>((e % per) / v.dp), j = static_cast<std::int32_t>(e % v.dp);
    s.a[e % per] = mod_matmul_entry(s.x, v.dp, v.arena + o.W, v.dp, v.arena + o.b1, i, j, v.p[q]);
  }
}

// BaseConv convolution (one thread per channel: the transform of ntt_arith.h, serially).
__global__ void k_conv(const ModModelView* vp, int l, u64 count, std::uint32_t* scratch) {
  const ModModelView& v = *vp;
  const u64 n = count * v.primes * v.dp, L = u64{1} << v.log_len;
  for (u64 e = flat_index(); e < n; e += flat_stride()) {
    const u64 iq = e / v.dp;
    const int q = static_cast<int>(iq % v.primes);
    const std::int32_t j = static_cast<std::int32_t>(e % v.dp);
    ModScratch s = scratch_of(v, scratch, iq / v.primes, q);
    mod_conv_channel(v, v.layer[l][q], q, s.x, s.c + u64(j) * L, j);
  }
}

__global__ void k_gate(const ModModelView* vp, u64 count, std::uint32_t* scratch) {
  const ModModelView& v = *vp;
  const u64 per = u64(v.Np) * v.dp, n = count * v.primes * per;
  for (u64 e = flat_index(); e < n; e += flat_stride()) {
    const u64 iq = e / per;
    const int q = static_cast<int>(iq % v.primes);
    mod_gate_entry(v, q, scratch_of(v, scratch, iq / v.primes, q), static_cast<std::int32_t>((e % per) / v.dp),
                   static_cast<std::int32_t>(e % v.dp));
  }
}

// Attention projections Q, K (N'×f) and V (N'×d'): one thread per (row, column of Q|K|V).
__global__ void k_qkv(const ModModelView* vp, int l, u64 count, std::uint32_t* scratch) {
  const ModModelView& v = *vp;
  const u64 w = 2 * u64(v.fmax) + v.dp, per = u64(v.Np) * w, n = count * v.primes * per;
  for (u64 e = flat_index(); e < n; e += flat_stride()) {
    const u64 iq = e / per;
    const int q = static_cast<int>(iq % v.primes);
    const ModLayerOff& o = v.layer[l][q];
    ModScratch s = scratch_of(v, scratch, iq / v.primes, q);
    const std::int32_t i = static_cast<std::int32_t>((e % per) / w), c = static_cast<std::int32_t>(e % w);
    const std::uint32_t p = v.p[q];
    if (c < v.fmax) {
      if (c < o.f) s.q[u64(i) * v.fmax + c] = mod_matmul_entry(s.x, v.dp, v.arena + o.Wq, o.f, nullptr, i, c, p);
    } else if (c < 2 * v.fmax) {
      const std::int32_t a = c - v.fmax;
      if (a < o.f) s.k[u64(i) * v.fmax + a] = mod_matmul_entry(s.x, v.dp, v.arena + o.Wk, o.f, nullptr, i, a, p);
    } else {
      const std::int32_t b = c - 2 * v.fmax;
      s.a[u64(i) * v.dp + b] = mod_matmul_entry(s.x, v.dp, v.arena + o.Wv, v.dp, nullptr, i, b, p);
    }
  }
}

__global__ void k_attn(const ModModelView* vp, int l, u64 count, std::uint32_t* scratch) {
  const ModModelView& v = *vp;
  const u64 n = count * v.primes * v.dp;
  for (u64 e = flat_index(); e < n; e += flat_stride()) {
    const u64 iq = e / v.dp;
    const int q = static_cast<int>(iq % v.primes);
    mod_attn_column(v, v.layer[l][q], q, scratch_of(v, scratch, iq / v.primes, q), static_cast<std::int32_t>(e % v.dp));
  }
}

// Verdict of every output entry (N×d per instance), then one tally per instance.
__global__ void k_compare(const ModModelView* vp, ModCodec c, u64 count, const std::int32_t* ans, const std::uint32_t* scratch,
                          std::uint32_t* bad) {
  const ModModelView& v = *vp;
  const u64 per = u64(v.N) * v.d, n = count * per;
  for (u64 e = flat_index(); e < n; e += flat_stride()) {
    const u64 t = e / per;
    const std::int32_t r = static_cast<std::int32_t>((e % per) / v.d), j = static_cast<std::int32_t>(e % v.d);
    const std::uint32_t want = mod_expected_entry(c, ans + t * kMaxTriples, r, j);
    if (!mod_entry_ok(v, scratch + t * v.primes * v.scratch_words, v.scratch_words, want, r, j)) bad[t] = 1;
  }
}

// One tally per thread, then one atomicAdd/atomicMin per warp (gpu/warp_tally.cuh).
__global__ void k_tally(u64 k0, u64 count, const std::uint32_t* bad, unsigned long long* failed, unsigned long long* first) {
  FailTally f;
  for (u64 t = flat_index(); t < count; t += flat_stride())
    if (bad[t]) f.fail(k0 + t);
  flush_tally(f, failed, first);
}

class CudaModModel final : public ModModelDevice {
 public:
  CudaModModel(const ModModelView& view, u64 words, u64 max_batch) : v_(view), batch_(std::max<u64>(max_batch, 1)) {
    arena_.upload(view.arena, words);
    v_.arena = arena_.get();
    view_.upload(&v_, 1);  // kernels read the view from device memory (5 KB: too big a kernel parameter for older drivers)
    scratch_.resize(batch_ * v_.primes * v_.scratch_words);
    tok_.resize(batch_ * 3 * kMaxTriples);
    ans_.resize(batch_ * kMaxTriples);
    bad_.resize(batch_);
    counters_.resize(2);
  }
  u64 max_batch() const override { return batch_; }

  void mqar(const TriplesSource& source, const ModCodec& codec, u64 k0, u64 count, u64& failed, u64& first) override {
    for (u64 done = 0; done < count;) {
      const u64 n = std::min(batch_, count - done), base = k0 + done;
      unsigned long long init[2] = {0, ~0ull};
      CZ_CUDA_CHECK(cudaMemcpy(counters_.get(), init, sizeof init, cudaMemcpyHostToDevice));
      k_triples<<<blocks_for(n), kThreads>>>(source, base, n, tok_.get(), ans_.get(), bad_.get());
      k_input_mqar<<<blocks_for(n * v_.primes * v_.Np * v_.dp), kThreads>>>(view_.get(), codec, n, tok_.get(), scratch_.get());
      layers(n);
      k_compare<<<blocks_for(n * v_.N * v_.d), kThreads>>>(view_.get(), codec, n, ans_.get(), scratch_.get(), bad_.get());
      k_tally<<<blocks_for(n), kThreads>>>(base, n, bad_.get(), counters_.get(), counters_.get() + 1);
      CZ_CUDA_CHECK(cudaGetLastError());
      unsigned long long out[2];
      counters_.download(out, 2);
      failed += out[0];
      if (out[0]) first = std::min<u64>(first, out[1]);
      done += n;
    }
  }

  void eval_random(u64 count, u64 seed, std::int64_t bound, std::uint32_t* out) override {
    const u64 per = u64(v_.Np) * v_.dp;
    for (u64 done = 0; done < count;) {
      const u64 n = std::min(batch_, count - done);
      k_input_random<<<blocks_for(n * v_.primes * per), kThreads>>>(view_.get(), done, n, seed, bound, scratch_.get());
      layers(n);
      CZ_CUDA_CHECK(cudaGetLastError());
      CZ_CUDA_CHECK(cudaDeviceSynchronize());
      if (out)
        for (u64 iq = 0; iq < n * v_.primes; ++iq)
          CZ_CUDA_CHECK(cudaMemcpy(out + (done * v_.primes + iq) * per, scratch_.get() + iq * v_.scratch_words,
                                   per * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
      done += n;
    }
  }

 private:
  void layers(u64 n) {
    const u64 per = u64(v_.Np) * v_.dp;
    for (int l = 0; l < v_.layers; ++l) {
      if (v_.layer[l][0].kind == kModBaseConv) {
        k_proj<<<blocks_for(n * v_.primes * per), kThreads>>>(view_.get(), l, n, scratch_.get());
        k_conv<<<blocks_for(n * v_.primes * v_.dp), kThreads>>>(view_.get(), l, n, scratch_.get());
        k_gate<<<blocks_for(n * v_.primes * per), kThreads>>>(view_.get(), n, scratch_.get());
      } else {
        k_qkv<<<blocks_for(n * v_.primes * v_.Np * (2 * u64(v_.fmax) + v_.dp)), kThreads>>>(view_.get(), l, n, scratch_.get());
        k_attn<<<blocks_for(n * v_.primes * v_.dp), kThreads>>>(view_.get(), l, n, scratch_.get());
      }
    }
  }

  ModModelView v_;
  u64 batch_;
  DeviceBuffer<std::uint32_t> arena_, scratch_, bad_;
  DeviceBuffer<std::int32_t> tok_, ans_;
  DeviceBuffer<unsigned long long> counters_;
  DeviceBuffer<ModModelView> view_;
};

}  // namespace

std::unique_ptr<ModModelDevice> make_mod_device(const ModModelView& view, u64 words, u64 max_batch) {
  return std::make_unique<CudaModModel>(view, words, max_batch);
}

}  // namespace cz::gpu
