#include "util/sha256.h"

#include <openssl/evp.h>

#include <stdexcept>

namespace cz {

struct Sha256::Impl {
  EVP_MD_CTX* ctx = nullptr;
};

Sha256::Sha256() : p_(std::make_unique<Impl>()) {
  p_->ctx = EVP_MD_CTX_new();
  if (!p_->ctx || EVP_DigestInit_ex(p_->ctx, EVP_sha256(), nullptr) != 1) throw std::runtime_error("SHA-256: libcrypto init failed");
}

Sha256::~Sha256() { EVP_MD_CTX_free(p_->ctx); }

void Sha256::update(const void* data, std::size_t n) {
  if (n && EVP_DigestUpdate(p_->ctx, data, n) != 1) throw std::runtime_error("SHA-256: libcrypto update failed");
}

std::string Sha256::hex() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(p_->ctx, md, &len) != 1 || len != 32) throw std::runtime_error("SHA-256: libcrypto final failed");
  static const char* digits = "0123456789abcdef";
  std::string s(64, '0');
  for (unsigned k = 0; k < 32; ++k) s[2 * k] = digits[md[k] >> 4], s[2 * k + 1] = digits[md[k] & 15];
  return s;
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 h;
  h.update(bytes.data(), bytes.size());
  return h.hex();
}

}  // namespace cz
