#ifndef CGEOPHOTO_CRYPTO_SHIM_H
#define CGEOPHOTO_CRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/rand.h>

/* SHA-256 of `length` bytes into `out` (32 bytes); 1 on success. */
static inline int gp_sha256(const void *data, size_t length, unsigned char *out) {
  unsigned int written = 0;
  return EVP_Digest(data, length, out, &written, EVP_sha256(), NULL) == 1 && written == 32;
}
#endif
