// Non-variadic wrappers around libmicrohttpd for Swift, which cannot call C variadic functions.
// Only the HTTPServer module imports this target.
#ifndef CMICROHTTPD_H
#define CMICROHTTPD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// The daemon settings HTTPServer uses, passed as one struct instead of a variadic option list.
struct cmhd_daemon_config {
    /// MHD_USE_* flags.
    unsigned int flags;
    /// A bound, listening socket (MHD_OPTION_LISTEN_SOCKET).
    int listen_fd;
    /// Worker threads in the pool (MHD_OPTION_THREAD_POOL_SIZE); 0 or 1 means no pool.
    unsigned int thread_pool_size;
    /// Seconds of inactivity before a connection is closed (MHD_OPTION_CONNECTION_TIMEOUT).
    unsigned int connection_timeout;
    /// Maximum concurrent connections (MHD_OPTION_CONNECTION_LIMIT).
    unsigned int connection_limit;
    /// Memory per connection, which bounds the request header size (MHD_OPTION_CONNECTION_MEMORY_LIMIT).
    size_t connection_memory_limit;
};

/// Signature of MHD_OPTION_URI_LOG_CALLBACK: its return value becomes the request's `*con_cls`.
typedef void *(*cmhd_uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Starts a daemon through MHD_OPTION_ARRAY; `cls` is passed to all five callbacks.
/// Returns NULL on failure (MHD logs the reason when MHD_USE_ERROR_LOG is set).
struct MHD_Daemon *cmhd_start_daemon(const struct cmhd_daemon_config *config,
                                     MHD_AcceptPolicyCallback accept_policy,
                                     MHD_AccessHandlerCallback handler,
                                     MHD_RequestCompletedCallback completed,
                                     cmhd_uri_logger uri_logger,
                                     MHD_NotifyConnectionCallback notify_connection,
                                     void *cls);

/// Opens a TCP socket bound to `host` (a name or numeric address) and `port` (0 = any free port), listening with
/// `backlog`, non-blocking and close-on-exec.
/// Returns the descriptor, or -1 with `*error_code` = errno, or -2 with `*error_code` = a getaddrinfo (EAI_*) code.
int cmhd_listen(const char *host, uint16_t port, int backlog, int *error_code, int *family);

/// The local port a socket is bound to, or 0 on error.
uint16_t cmhd_socket_port(int fd);

/// Whether `fd` is an open descriptor.
int cmhd_fd_is_open(int fd);

/// The client's socket address (MHD_CONNECTION_INFO_CLIENT_ADDRESS), or NULL if unknown.
const struct sockaddr *cmhd_connection_sockaddr(struct MHD_Connection *connection);

/// The connection's socket descriptor, or -1.
int cmhd_connection_fd(struct MHD_Connection *connection);

/// The connection's `socket_context` (set by the MHD_OPTION_NOTIFY_CONNECTION callback), or NULL.
void *cmhd_connection_socket_context(struct MHD_Connection *connection);

#endif
