#include "CMicroHTTPD.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct MHD_Daemon *cmhd_start_daemon(const struct cmhd_daemon_config *config,
                                     MHD_AcceptPolicyCallback accept_policy,
                                     MHD_AccessHandlerCallback handler,
                                     MHD_RequestCompletedCallback completed,
                                     cmhd_uri_logger uri_logger,
                                     MHD_NotifyConnectionCallback notify_connection,
                                     void *cls) {
    struct MHD_OptionItem options[10];
    size_t count = 0;
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_SOCKET, config->listen_fd, NULL};
    if (config->thread_pool_size > 1) {
        options[count++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, config->thread_pool_size, NULL};
    }
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, config->connection_timeout, NULL};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, config->connection_limit, NULL};
    options[count++] =
        (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)config->connection_memory_limit, NULL};
    // Options taking two pointers carry the function in `value` and its closure in `ptr_value`.
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, cls};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_logger, cls};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify_connection, cls};
    options[count++] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};

    return MHD_start_daemon(config->flags, 0, accept_policy, cls, handler, cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

int cmhd_listen(const char *host, uint16_t port, int backlog, int *error_code, int *family) {
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    char service[8];
    snprintf(service, sizeof service, "%u", (unsigned)port);

    struct addrinfo *results = NULL;
    int status = getaddrinfo(host, service, &hints, &results);
    if (status != 0) {
        *error_code = status;
        return -2;
    }
    int fd = -1;
    int last_error = EADDRNOTAVAIL;
    for (struct addrinfo *ai = results; ai != NULL; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            last_error = errno;
            continue;
        }
        int on = 1;
        // SO_REUSEADDR lets a restarted server bind past TIME_WAIT; it never lets two listeners share a port.
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, backlog) == 0) {
            *family = ai->ai_family;
            break;
        }
        last_error = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(results);
    if (fd < 0) {
        *error_code = last_error;
        return -1;
    }
    return fd;
}

uint16_t cmhd_socket_port(int fd) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) {
        return 0;
    }
    if (address.ss_family == AF_INET) {
        return ntohs(((struct sockaddr_in *)&address)->sin_port);
    }
    if (address.ss_family == AF_INET6) {
        return ntohs(((struct sockaddr_in6 *)&address)->sin6_port);
    }
    return 0;
}

int cmhd_fd_is_open(int fd) {
    return fcntl(fd, F_GETFD) != -1;
}

const struct sockaddr *cmhd_connection_sockaddr(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

void *cmhd_connection_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}
