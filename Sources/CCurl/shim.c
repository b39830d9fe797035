#include "CCurl.h"

#include <netinet/in.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>

static ccurl_address_filter installed_filter;
static CURLcode setup_result = CURLE_OK;
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static ccurl_address_filter pending_filter;

static void setup(void) {
    installed_filter = pending_filter;
    setup_result = curl_global_init(CURL_GLOBAL_DEFAULT);
}

CURLcode ccurl_global_setup(ccurl_address_filter filter) {
    pending_filter = filter;
    pthread_once(&setup_once, setup);
    return setup_result;
}

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode ccurl_easy_set_body_sink(CURL *handle, curl_write_callback callback, void *context) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_WRITEDATA, context);
}

CURLcode ccurl_easy_set_body_source(CURL *handle, curl_read_callback read, curl_seek_callback seek, void *context) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_READFUNCTION, read);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_READDATA, context);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, seek);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_SEEKDATA, context);
}

CURLcode ccurl_easy_set_header_sink(CURL *handle, curl_write_callback callback, void *context) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_HEADERDATA, context);
}

// Called with the address curl is about to connect to, after DNS and for every attempt (each resolved address,
// each new connection), so a name that resolves to a forbidden address is caught whatever it resolved to before.
// Anything that is not a TCP/IP connection for the transfer itself is refused.
static curl_socket_t open_guarded_socket(void *context, curlsocktype purpose, struct curl_sockaddr *address) {
    if (purpose != CURLSOCKTYPE_IPCXN || installed_filter == NULL) return CURL_SOCKET_BAD;
    const unsigned char *bytes;
    unsigned short port;
    if (address->family == AF_INET && address->addrlen >= sizeof(struct sockaddr_in)) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)&address->addr;
        bytes = (const unsigned char *)&in->sin_addr;
        port = ntohs(in->sin_port);
    } else if (address->family == AF_INET6 && address->addrlen >= sizeof(struct sockaddr_in6)) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&address->addr;
        bytes = (const unsigned char *)&in6->sin6_addr;
        port = ntohs(in6->sin6_port);
    } else {
        return CURL_SOCKET_BAD;
    }
    if (!installed_filter(context, address->family, bytes, port)) return CURL_SOCKET_BAD;
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

CURLcode ccurl_easy_guard_sockets(CURL *handle, void *context) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, open_guarded_socket);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_OPENSOCKETDATA, context);
}

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

int ccurl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result) {
    int remaining = 0;
    CURLMsg *message;
    while ((message = curl_multi_info_read(multi, &remaining)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *handle = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}
