// A kernel whose host-side allocations grow without bound (a linked list of 1 MB nodes).
#include <cstring>
#include "kernel_operator.h"
using namespace AscendC;
struct Node {
    Node *next;
    char payload[1 << 20];
};
extern "C" __global__ __aicore__ void memory_hog(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 4096);
    Node *head = nullptr;
    float seed = xGm.GetValue(0);
    for (;;) {
        Node *n = new Node;
        std::memset(n->payload, static_cast<int>(seed), sizeof(n->payload));
        n->next = head;
        head = n;
    }
}
