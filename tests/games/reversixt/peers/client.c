/*
 * A small ReversiXT client in C, written from spec section 9 alone: an independent peer for
 * gridarena's server. It plays legal moves on maps without transitions, special fields or
 * override stones (the 8x8 Othello start, for instance): the move that flips the most stones,
 * the first such in row-major order; in phase 2 it bombs the first field that is not a hole.
 * It keeps its own board from the announcements only and prints the final stone counts.
 *
 *   client PORT [GROUP [WAIT]]   exit 0 after END2, 1 on a socket error, 2 on a protocol error,
 *                                3 when asked to move without a valid move on its own board
 *
 * A refused connection (the server is not listening yet: it was started in the same breath) is
 * tried again every 50 ms for WAIT seconds (default 10), as course clients started by a script must.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int fd;
static int players, overrides, bombs, radius, height, width;
static char *board; /* map symbols: '0', '1'..'8', '-' */
static int me, phase = 1;
static const int DX[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int DY[8] = {-1, -1, 0, 1, 1, 1, 0, -1};

static void read_all(void *buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r <= 0) {
            fprintf(stderr, "client.c: connection closed mid-message\n");
            exit(1);
        }
        got += (size_t)r;
    }
}

static void write_all(const void *buf, size_t n) {
    if (write(fd, buf, n) != (ssize_t)n) {
        perror("client.c: write");
        exit(1);
    }
}

/* One write per frame: a header and payload written apart would wait for Nagle's algorithm. */
static void send_frame(uint8_t type, const uint8_t *payload, uint32_t len) {
    uint8_t frame[5 + 8];
    frame[0] = type;
    uint32_t be = htonl(len);
    memcpy(frame + 1, &be, 4);
    memcpy(frame + 5, payload, len);
    write_all(frame, 5 + len);
}

static int on_board(int x, int y) {
    return x >= 0 && y >= 0 && x < width && y < height && board[y * width + x] != '-';
}

static char *cell(int x, int y) { return &board[y * width + x]; }

/* Number of stones player k flips by placing on (x, y); with apply != 0 it also plays it. */
static int flips(int x, int y, int k, int apply) {
    char own = (char)('0' + k);
    int total = 0;
    for (int d = 0; d < 8; d++) {
        int n = 0, cx = x + DX[d], cy = y + DY[d];
        while (on_board(cx, cy) && *cell(cx, cy) >= '1' && *cell(cx, cy) <= '8' && *cell(cx, cy) != own) {
            n++;
            cx += DX[d];
            cy += DY[d];
        }
        if (n > 0 && on_board(cx, cy) && *cell(cx, cy) == own) {
            total += n;
            if (apply)
                for (int i = 1; i <= n; i++) *cell(x + i * DX[d], y + i * DY[d]) = own;
        }
    }
    if (apply) *cell(x, y) = own;
    return total;
}

static void explode(int x, int y) {
    int n = width * height;
    int *dist = malloc(sizeof(int) * (size_t)n), *queue = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) dist[i] = -1;
    int head = 0, tail = 0;
    dist[y * width + x] = 0;
    queue[tail++] = y * width + x;
    while (head < tail) {
        int f = queue[head++], fx = f % width, fy = f / width;
        if (dist[f] == radius) continue;
        for (int d = 0; d < 8; d++) {
            int nx = fx + DX[d], ny = fy + DY[d];
            if (on_board(nx, ny) && dist[ny * width + nx] < 0) {
                dist[ny * width + nx] = dist[f] + 1;
                queue[tail++] = ny * width + nx;
            }
        }
    }
    for (int i = 0; i < tail; i++) board[queue[i]] = '-';
    free(dist);
    free(queue);
}

static void parse_map(char *text) {
    char *save = NULL, *tok;
    int header[6];
    for (int i = 0; i < 6; i++) {
        tok = strtok_r(i ? NULL : text, " \t\r\n", &save);
        if (!tok) exit(2);
        header[i] = atoi(tok);
    }
    players = header[0], overrides = header[1], bombs = header[2], radius = header[3];
    height = header[4], width = header[5];
    board = malloc((size_t)(width * height));
    for (int i = 0; i < width * height; i++) {
        tok = strtok_r(NULL, " \t\r\n", &save);
        if (!tok || strlen(tok) != 1) exit(2);
        board[i] = tok[0];
    }
}

static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Connect to 127.0.0.1:port, trying again while the connection is refused, for wait seconds. */
static int connect_retrying(uint16_t port, double wait) {
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    double deadline = now() + wait;
    for (;;) {
        int s = socket(AF_INET, SOCK_STREAM, 0); /* a socket whose connect failed is not used again */
        if (s < 0) return -1;
        if (connect(s, (struct sockaddr *)&addr, sizeof addr) == 0) return s;
        int failure = errno;
        close(s);
        if (failure != ECONNREFUSED || now() >= deadline) {
            errno = failure;
            return -1;
        }
        struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: client PORT [GROUP [WAIT]]\n");
        return 2;
    }
    fd = connect_retrying((uint16_t)atoi(argv[1]), argc > 3 ? atof(argv[3]) : 10.0);
    if (fd < 0) {
        perror("client.c: connect");
        return 1;
    }
    uint8_t group = (uint8_t)(argc > 2 ? atoi(argv[2]) : 0);
    send_frame(1, &group, 1);
    int my_moves = 0;
    for (;;) {
        uint8_t header[5];
        read_all(header, 5);
        uint32_t len;
        memcpy(&len, header + 1, 4);
        len = ntohl(len);
        static const int fixed[10] = {-1, -1, -2, 1, 5, -1, 6, 1, 0, 0}; /* -2: any length */
        if (header[0] > 9 || fixed[header[0]] == -1 || (fixed[header[0]] >= 0 && (uint32_t)fixed[header[0]] != len)) {
            fprintf(stderr, "client.c: bad message type %d length %u\n", header[0], len);
            return 2;
        }
        uint8_t *payload = malloc(len + 1);
        read_all(payload, len);
        payload[len] = 0;
        switch (header[0]) {
        case 2:
            parse_map((char *)payload);
            break;
        case 3:
            me = payload[0];
            break;
        case 4: {
            int bx = -1, by = -1, best = 0;
            for (int y = 0; y < height && phase == 1; y++)
                for (int x = 0; x < width; x++)
                    if (*cell(x, y) == '0') {
                        int f = flips(x, y, me, 0);
                        if (f > best) best = f, bx = x, by = y;
                    }
            for (int i = 0; i < width * height && phase == 2 && bx < 0; i++)
                if (board[i] != '-') bx = i % width, by = i / width;
            if (bx < 0) {
                fprintf(stderr, "client.c: asked to move but no valid move on my board\n");
                return 3;
            }
            uint8_t answer[5] = {(uint8_t)(bx >> 8), (uint8_t)bx, (uint8_t)(by >> 8), (uint8_t)by, 0};
            send_frame(5, answer, 5);
            my_moves++;
            break;
        }
        case 6: {
            int x = be16(payload), y = be16(payload + 2), who = payload[5];
            if (phase == 1)
                flips(x, y, who, 1);
            else
                explode(x, y);
            break;
        }
        case 7:
            break;
        case 8:
            phase = 2;
            break;
        case 9: {
            printf("player %d moves %d scores", me, my_moves);
            for (int k = 1; k <= players; k++) {
                int n = 0;
                for (int i = 0; i < width * height; i++) n += board[i] == '0' + k;
                printf(" %d", n);
            }
            printf("\n");
            return 0;
        }
        default:
            fprintf(stderr, "client.c: unexpected message type %d\n", header[0]);
            return 2;
        }
        free(payload);
    }
}
