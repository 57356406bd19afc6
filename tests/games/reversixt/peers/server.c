/*
 * A scripted ReversiXT server in C that checks a client's bytes against spec section 9.
 *
 *   server SCENARIO GROUP    listens on a free port of 127.0.0.1, prints "PORT <n>", serves one client
 *
 * The map is one row, "1 2 0 0", two players, one bomb each of radius 0. The client is player 1;
 * the server plays player 2 itself and announces its moves. Player 1's only phase-1 move is (2,0).
 *
 *   bombs: request (2000 ms, depth 3) -> expect exactly (2,0,0); announce it; END1; announce player
 *          2's bomb on (3,0); request (no time, no depth) -> expect a bomb on (0..2,0) with special 0;
 *          announce it; END2; expect the client to close.
 *   disq:  request -> expect (2,0,0); announce it; disqualify player 2 (message 7); END2 (no END1:
 *          one player is left); expect the client to close.
 *
 * Exit 0 when every byte was as expected, 1 with a message on stderr otherwise.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int fd;
static const char MAP[] = "2\n0\n1 0\n1 4\n1 2 0 0 \n";

static void fail(const char *what) {
    fprintf(stderr, "server.c: %s\n", what);
    exit(1);
}

static void read_all(uint8_t *buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r <= 0) fail("the client closed the connection early");
        got += (size_t)r;
    }
}

/* One write per frame (a header and payload written apart would wait for Nagle's algorithm). */
static void send_frame(uint8_t type, const void *payload, uint32_t len) {
    uint8_t frame[5 + sizeof MAP];
    frame[0] = type;
    uint32_t be = htonl(len);
    memcpy(frame + 1, &be, 4);
    if (len) memcpy(frame + 5, payload, len);
    if (write(fd, frame, 5 + len) != (ssize_t)(5 + len)) fail("write failed");
}

static void send_request(uint32_t millis, uint8_t depth) {
    uint8_t p[5];
    uint32_t be = htonl(millis);
    memcpy(p, &be, 4);
    p[4] = depth;
    send_frame(4, p, 5);
}

static void announce(int x, int y, int special, int player) {
    uint8_t p[6] = {(uint8_t)(x >> 8), (uint8_t)x, (uint8_t)(y >> 8), (uint8_t)y, (uint8_t)special, (uint8_t)player};
    send_frame(6, p, 6);
}

/* Read one move answer; check its header bytes exactly. */
static void read_answer(uint8_t answer[5]) {
    uint8_t header[5];
    static const uint8_t expected[5] = {5, 0, 0, 0, 5};
    read_all(header, 5);
    if (memcmp(header, expected, 5) != 0) {
        fprintf(stderr, "server.c: answer header %02x %02x %02x %02x %02x, expected 05 00000005\n", header[0],
                header[1], header[2], header[3], header[4]);
        exit(1);
    }
    read_all(answer, 5);
}

static void expect_close(void) {
    uint8_t byte;
    ssize_t r = read(fd, &byte, 1);
    if (r != 0) fail("the client sent more bytes (or failed) instead of closing after END2");
}

int main(int argc, char **argv) {
    if (argc < 3) fail("usage: server bombs|disq GROUP");
    int bombs = strcmp(argv[1], "bombs") == 0;
    alarm(30);
    int ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t alen = sizeof addr;
    if (bind(ls, (struct sockaddr *)&addr, sizeof addr) || listen(ls, 1) ||
        getsockname(ls, (struct sockaddr *)&addr, &alen))
        fail("cannot listen");
    printf("PORT %d\n", ntohs(addr.sin_port));
    fflush(stdout);
    fd = accept(ls, NULL, NULL);
    if (fd < 0) fail("accept failed");

    uint8_t group[6];
    read_all(group, 6);
    uint8_t expected_group[6] = {1, 0, 0, 0, 1, (uint8_t)atoi(argv[2])};
    if (memcmp(group, expected_group, 6) != 0) fail("the first message is not 01 00000001 GROUP");
    send_frame(2, MAP, sizeof MAP - 1);
    uint8_t one = 1;
    send_frame(3, &one, 1);

    uint8_t answer[5];
    static const uint8_t only_move[5] = {0, 2, 0, 0, 0};
    send_request(2000, 3);
    read_answer(answer);
    if (memcmp(answer, only_move, 5) != 0) fail("the first answer is not (2,0,0), the only valid move");
    announce(2, 0, 0, 1);
    if (bombs) {
        send_frame(8, NULL, 0);
        announce(3, 0, 0, 2); /* player 2 bombs (3,0): it becomes a hole */
        send_request(0, 0);
        read_answer(answer);
        int x = answer[0] << 8 | answer[1], y = answer[2] << 8 | answer[3];
        if (x > 2 || y != 0 || answer[4] != 0) fail("the bomb is not on a field (0..2,0) with special 0");
        announce(x, y, 0, 1);
    } else {
        uint8_t two = 2;
        send_frame(7, &two, 1);
    }
    send_frame(9, NULL, 0);
    expect_close();
    printf("OK\n");
    return 0;
}
