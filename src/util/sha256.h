// SHA-256 (FIPS 180-4) of byte strings, as lowercase hex: the hashes of the certificate index
// (issue 38: each CNF and DRAT proof is named by its hash). OpenSSL's libcrypto does the work
// (Debian libssl-dev); its headers stay in sha256.cpp.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace cz {

// Incremental: update() any number of times, then hex() once (the object is spent afterwards).
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(const void* data, std::size_t n);
  std::string hex();

 private:
  struct Impl;
  std::unique_ptr<Impl> p_;
};

std::string sha256_hex(std::string_view bytes);

}  // namespace cz
