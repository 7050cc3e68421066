#ifndef CGEOPHOTO_CURL_SHIM_H
#define CGEOPHOTO_CURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic: Swift needs one typed wrapper per
   argument kind. Long options always take a C long. */
static inline CURLcode gp_curl_setopt_long(CURL *h, CURLoption o, long v) {
  return curl_easy_setopt(h, o, v);
}
static inline CURLcode gp_curl_setopt_string(CURL *h, CURLoption o, const char *v) {
  return curl_easy_setopt(h, o, v);
}
static inline CURLcode gp_curl_setopt_pointer(CURL *h, CURLoption o, void *v) {
  return curl_easy_setopt(h, o, v);
}
static inline CURLcode gp_curl_setopt_off_t(CURL *h, CURLoption o, curl_off_t v) {
  return curl_easy_setopt(h, o, v);
}
static inline CURLcode gp_curl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) {
  return curl_easy_setopt(h, o, v);
}
typedef size_t (*gp_curl_data_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode gp_curl_setopt_callback(CURL *h, CURLoption o, gp_curl_data_callback v) {
  return curl_easy_setopt(h, o, v);
}
static inline CURLcode gp_curl_getinfo_long(CURL *h, CURLINFO i, long *v) {
  return curl_easy_getinfo(h, i, v);
}
static inline CURLcode gp_curl_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *v) {
  return curl_easy_getinfo(h, i, v);
}
#endif
