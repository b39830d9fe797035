// Non-variadic wrappers around libcurl for Swift, which cannot call curl_easy_setopt, curl_easy_getinfo or
// curl_multi_setopt (all variadic). Only the Outbound module imports this target.
#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>

/// Decides whether a connection may be opened to an address: `family` is AF_INET (4 address bytes) or AF_INET6
/// (16 bytes), both in network order. Returns nonzero to allow. `context` is the transfer's CURLOPT_OPENSOCKETDATA.
typedef int (*ccurl_address_filter)(void *context, int family, const unsigned char *address, unsigned short port);

/// Runs curl_global_init once and installs the process-wide address filter every guarded handle consults.
/// Returns CURLE_OK, or the curl_global_init error.
CURLcode ccurl_global_setup(ccurl_address_filter filter);

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
/// For string, object (CURLU, curl_slist) and data pointer options.
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value);
/// Sets both CURLOPT_WRITEFUNCTION and CURLOPT_WRITEDATA.
CURLcode ccurl_easy_set_body_sink(CURL *handle, curl_write_callback callback, void *context);
/// Sets CURLOPT_READFUNCTION, CURLOPT_READDATA, CURLOPT_SEEKFUNCTION and CURLOPT_SEEKDATA: the request body is
/// read from `context` as curl sends it (and read again from the start should curl need to resend it).
CURLcode ccurl_easy_set_body_source(CURL *handle, curl_read_callback read, curl_seek_callback seek, void *context);
/// Sets both CURLOPT_HEADERFUNCTION and CURLOPT_HEADERDATA.
CURLcode ccurl_easy_set_header_sink(CURL *handle, curl_write_callback callback, void *context);
/// Routes every socket the handle opens through the installed address filter, with `context` passed to it.
/// Refused addresses make curl see CURL_SOCKET_BAD, which it reports as CURLE_COULDNT_CONNECT.
CURLcode ccurl_easy_guard_sockets(CURL *handle, void *context);

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/// Takes the next finished transfer off the multi handle's message queue. Returns 1 and fills `handle` and
/// `result` when there was one, 0 when the queue is empty.
int ccurl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result);

#endif
