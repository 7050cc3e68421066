#ifndef CGEOPHOTO_HTTPD_SHIM_H
#define CGEOPHOTO_HTTPD_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/* Called with each request's target exactly as sent (before the query is split off and
   before any decoding); what it returns is the request's context pointer. */
typedef void *(*gp_mhd_uri_logger)(void *context, const char *uri, struct MHD_Connection *connection);

/* MHD_start_daemon takes a variadic option list: one fixed list here. */
static inline struct MHD_Daemon *gp_mhd_start(
    unsigned int flags, const struct sockaddr *address, MHD_AccessHandlerCallback handler, void *context,
    unsigned int threads, unsigned int connection_limit, unsigned int per_client_limit, unsigned int timeout_seconds,
    size_t memory_limit, MHD_NotifyConnectionCallback connection_notifier,
    MHD_RequestCompletedCallback completion_notifier, gp_mhd_uri_logger uri_logger) {
  return MHD_start_daemon(
      flags, 0, NULL, NULL, handler, context,
      MHD_OPTION_SOCK_ADDR, address,
      MHD_OPTION_URI_LOG_CALLBACK, uri_logger, context,
      MHD_OPTION_NOTIFY_CONNECTION, connection_notifier, context,
      MHD_OPTION_NOTIFY_COMPLETED, completion_notifier, context,
      MHD_OPTION_THREAD_POOL_SIZE, threads,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_client_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
      MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned int)512,
      MHD_OPTION_END);
}

/* The daemon's open connections (MHD_get_daemon_info is variadic). */
static inline unsigned int gp_mhd_open_connections(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
  return info ? info->num_connections : 0;
}

/* A connection's socket (MHD_get_connection_info is variadic). */
static inline int gp_mhd_connection_fd(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info ? info->connect_fd : -1;
}

/* The port the daemon listens on (for port-0 servers). */
static inline uint16_t gp_mhd_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info ? info->port : 0;
}
#endif
