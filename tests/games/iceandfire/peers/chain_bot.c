/* A CodinGame bot in C: each turn its units walk to the enemy HQ and it trains level-1 units on the
   free cells next to its territory, nearest the enemy HQ first. It plays a whole game. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    int spots, gold, income, og, oi, nb, nu;
    char rows[12][16];
    if (scanf("%d", &spots) != 1) return 0;
    for (int i = 0; i < spots; i++) { int x, y; scanf("%d %d", &x, &y); }
    for (;;) {
        if (scanf("%d %d %d %d", &gold, &income, &og, &oi) != 4) return 0;
        for (int y = 0; y < 12; y++) scanf("%15s", rows[y]);
        int busy[12][12];
        memset(busy, 0, sizeof busy);
        int ex = 11, ey = 11;
        scanf("%d", &nb);
        for (int i = 0; i < nb; i++) {
            int owner, type, x, y;
            scanf("%d %d %d %d", &owner, &type, &x, &y);
            busy[y][x] = 1;
            if (owner == 1 && type == 0) { ex = x; ey = y; }
        }
        char out[8192] = "WAIT";
        scanf("%d", &nu);
        for (int i = 0; i < nu; i++) {
            int owner, id, level, x, y;
            scanf("%d %d %d %d %d", &owner, &id, &level, &x, &y);
            busy[y][x] = 1;
            if (owner == 0) {
                char cmd[64];
                snprintf(cmd, sizeof cmd, ";MOVE %d %d %d", id, ex, ey);
                strcat(out, cmd);
            }
        }
        for (int trains = 0; gold >= 10 && trains < 4; trains++) {
            int bx = -1, by = -1, bd = 1000;
            for (int y = 0; y < 12; y++)
                for (int x = 0; x < 12; x++) {
                    if (rows[y][x] == '#' || rows[y][x] == 'O' || busy[y][x]) continue;
                    int next = (x > 0 && rows[y][x - 1] == 'O') || (x < 11 && rows[y][x + 1] == 'O') ||
                               (y > 0 && rows[y - 1][x] == 'O') || (y < 11 && rows[y + 1][x] == 'O');
                    int d = abs(ex - x) + abs(ey - y);
                    if (next && d < bd) { bd = d; bx = x; by = y; }
                }
            if (bx < 0) break;
            char cmd[64];
            snprintf(cmd, sizeof cmd, ";TRAIN 1 %d %d", bx, by);
            strcat(out, cmd);
            rows[by][bx] = 'O';
            busy[by][bx] = 1;
            gold -= 10;
        }
        printf("%s\n", out);
        fflush(stdout);
    }
}
