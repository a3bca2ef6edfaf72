#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <usrsctp.h>

// libusrsctp for the WebRTC data channel's SCTP (RFC 8261: SCTP over DTLS), in AF_CONN mode: no
// socket of its own; the DTLS layer hands it packets (usrsctp_conninput) and it hands back the
// packets to send through the output callback given to usrsctp_init (docs/webrtc.md). Socket
// options, which take C structs, are set here.

typedef int (*vload_sctp_output_fn)(void *address, void *buffer, size_t length, uint8_t tos, uint8_t setDF);
typedef int (*vload_sctp_receive_fn)(struct socket *sock, union sctp_sockstore address, void *data, size_t length,
                                     struct sctp_rcvinfo info, int flags, void *ulpInfo);

/// Starts usrsctp once per process: no UDP encapsulation port, no debug output, and ECN off (a
/// data channel's peer negotiates none: libwebrtc and libdatachannel turn it off too).
static inline void vload_sctp_init(vload_sctp_output_fn output) {
    usrsctp_init(0, output, NULL);
    usrsctp_sysctl_set_sctp_ecn_enable(0);
}

/// One association's socket, registered under `address` (an opaque key, never dereferenced by
/// usrsctp): one-to-one, non-blocking, no linger (close aborts), no Nagle delay, receive info with
/// every message, association-change notifications, stream resets allowed (RFC 8831 §6.7 closes
/// a channel with one), `mtuBytes` as the path MTU with discovery off, bound to `localPort` and
/// connecting to `remotePort` (RFC 8841's a=sctp-port). NULL with `*errorOut` set on failure.
static inline struct socket *vload_sctp_open(void *address, vload_sctp_receive_fn receive, uint16_t localPort,
                                             uint16_t remotePort, uint32_t mtuBytes, uint16_t streams, int *errorOut) {
    usrsctp_register_address(address);
    struct socket *sock = usrsctp_socket(AF_CONN, SOCK_STREAM, IPPROTO_SCTP, receive, NULL, 0, address);
    if (sock == NULL) {
        *errorOut = errno;
        usrsctp_deregister_address(address);
        return NULL;
    }
    int on = 1;
    struct linger linger = {.l_onoff = 1, .l_linger = 0};
    struct sctp_assoc_value reset = {.assoc_id = SCTP_ALL_ASSOC, .assoc_value = SCTP_ENABLE_RESET_STREAM_REQ};
    struct sctp_initmsg init;
    memset(&init, 0, sizeof init);
    init.sinit_num_ostreams = streams;
    init.sinit_max_instreams = streams;
    struct sctp_paddrparams path;
    memset(&path, 0, sizeof path);
    path.spp_pathmtu = mtuBytes;
    path.spp_flags = SPP_PMTUD_DISABLE;
    int ok = usrsctp_set_non_blocking(sock, 1) == 0
        && usrsctp_setsockopt(sock, SOL_SOCKET, SO_LINGER, &linger, sizeof linger) == 0
        && usrsctp_setsockopt(sock, IPPROTO_SCTP, SCTP_NODELAY, &on, sizeof on) == 0
        && usrsctp_setsockopt(sock, IPPROTO_SCTP, SCTP_RECVRCVINFO, &on, sizeof on) == 0
        && usrsctp_setsockopt(sock, IPPROTO_SCTP, SCTP_ENABLE_STREAM_RESET, &reset, sizeof reset) == 0
        && usrsctp_setsockopt(sock, IPPROTO_SCTP, SCTP_INITMSG, &init, sizeof init) == 0
        && usrsctp_setsockopt(sock, IPPROTO_SCTP, SCTP_PEER_ADDR_PARAMS, &path, sizeof path) == 0;
    uint16_t events[] = {SCTP_ASSOC_CHANGE, SCTP_STREAM_RESET_EVENT};
    for (size_t index = 0; ok && index < sizeof events / sizeof events[0]; index++) {
        struct sctp_event event = {.se_assoc_id = SCTP_ALL_ASSOC, .se_type = events[index], .se_on = 1};
        ok = usrsctp_setsockopt(sock, IPPROTO_SCTP, SCTP_EVENT, &event, sizeof event) == 0;
    }
    struct sockaddr_conn local;
    memset(&local, 0, sizeof local);
    local.sconn_family = AF_CONN;
    local.sconn_port = htons(localPort);
    local.sconn_addr = address;
    ok = ok && usrsctp_bind(sock, (struct sockaddr *)&local, sizeof local) == 0;
    if (ok) {
        struct sockaddr_conn remote = local;
        remote.sconn_port = htons(remotePort);
        ok = usrsctp_connect(sock, (struct sockaddr *)&remote, sizeof remote) == 0 || errno == EINPROGRESS;
    }
    if (!ok) {
        *errorOut = errno;
        usrsctp_close(sock);
        usrsctp_deregister_address(address);
        return NULL;
    }
    return sock;
}

/// Sends one whole message, ordered and reliable, on stream `streamID` with payload protocol
/// `ppid` (host order). Returns the bytes queued, or -1 with errno set.
static inline ssize_t vload_sctp_send(struct socket *sock, const void *data, size_t length, uint16_t streamID,
                                      uint32_t ppid) {
    struct sctp_sndinfo info;
    memset(&info, 0, sizeof info);
    info.snd_sid = streamID;
    info.snd_ppid = htonl(ppid);
    return usrsctp_sendv(sock, data, length, NULL, 0, &info, sizeof info, SCTP_SENDV_SNDINFO, 0);
}

/// The state of an association-change notification (SCTP_COMM_UP, SCTP_COMM_LOST, ...), or 0
/// when `data` is another notification.
static inline uint16_t vload_sctp_association_state(const void *data, size_t length) {
    const union sctp_notification *notification = data;
    if (length < sizeof(struct sctp_assoc_change) || notification->sn_header.sn_type != SCTP_ASSOC_CHANGE) return 0;
    return notification->sn_assoc_change.sac_state;
}

/// Whether a notification is SCTP_COMM_LOST carrying the ABORT chunk that caused it: usrsctp
/// copies a received ABORT into `sac_info` (RFC 6458 §6.1.1), and leaves it empty when the
/// association is lost on this side (retransmissions run out, or this end aborts).
static inline int vload_sctp_is_peer_abort(const void *data, size_t length) {
    const union sctp_notification *notification = data;
    if (length < sizeof(struct sctp_assoc_change) || notification->sn_header.sn_type != SCTP_ASSOC_CHANGE) return 0;
    return notification->sn_assoc_change.sac_state == SCTP_COMM_LOST
        && notification->sn_assoc_change.sac_length > sizeof(struct sctp_assoc_change);
}

/// Closes the socket (an ABORT, as it does not linger) and forgets `address`.
static inline void vload_sctp_close(struct socket *sock, void *address) {
    usrsctp_close(sock);
    usrsctp_deregister_address(address);
}

/// Whether a receive callback's `flags` mark a notification rather than a message.
static inline int vload_sctp_is_notification(int flags) { return (flags & MSG_NOTIFICATION) != 0; }

/// Whether a receive callback's `flags` mark the end of a message (MSG_EOR); without it the
/// message continues in the next callback (partial delivery).
static inline int vload_sctp_is_end_of_record(int flags) { return (flags & MSG_EOR) != 0; }
