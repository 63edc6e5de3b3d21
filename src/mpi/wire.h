/* wire.h: what the MPI engine's ranks tell the model rank, and what it answers.
 *
 * Every rank runs one processor's algorithm and moves its data with MPI (engine.c). Rank 0
 * also runs the model (model.c): the thread engine itself, each processor a proxy that performs,
 * in the model, the calls its rank reports. A rank reports each call (hr_wire_req) and waits for
 * the answer (hr_wire_rep): the clock after it, and for a receive which message the model
 * matched, which the rank then takes from the data MPI brought. So the model figures are the
 * thread engine's by construction (docs/architecture.md, "The MPI engine").
 */
#ifndef HREMU_MPI_WIRE_H
#define HREMU_MPI_WIRE_H

#include <stdint.h>

enum {
    HR_W_TAG_REQ = 1,      /* rank -> rank 0: a call */
    HR_W_TAG_REP = 2,      /* rank 0 -> rank: its answer, or the run's end */
    HR_W_TAG_DATA = 3,     /* rank -> rank: a message's bytes (hr_wire_data, then the payload) */
    HR_W_TAG_EXTRA = 4     /* rank -> rank 0, after a call that has more: the run's number (8
                              bytes), then the call's bytes (a group's key, tokens) */
};

enum hr_wire_op {
    HR_W_SEND,             /* peer, tag, len */
    HR_W_RECV,             /* peer (or HR_ANY), tag (or HR_ANY_TAG), len: the capacity */
    HR_W_SENDRECV,         /* the send's peer, tag, len; the receive's peer2, tag2, cap */
    HR_W_PROBE,            /* peer, tag */
    HR_W_COMPUTE,          /* units */
    HR_W_DONE,             /* the algorithm returned; answered by the run's end */
    HR_W_FAIL,             /* hr_fail or a misuse (misuse set), text; answered by the run's end */
    HR_W_STOP,             /* rank 0 to itself: the model's run is over, stop dispatching */
    /* collective blocks (core/engine.h): tag and text, or peer and len; AWAIT's count in len */
    HR_W_COLL_BEGIN, HR_W_COLL_END, HR_W_POST, HR_W_LEND, HR_W_TAKE, HR_W_VIEW, HR_W_VIEW_END,
    HR_W_AWAIT, HR_W_COMPLETE,
    HR_W_CTX,              /* len bytes of a group's key follow (HR_W_TAG_EXTRA); answer: tag =
                              the group's id */
    /* requests: a request is named by its token, the model's own handle */
    HR_W_ISEND,            /* as SEND; answer: token */
    HR_W_IRECV,            /* as RECV; answer: token */
    HR_W_WAIT,             /* token */
    HR_W_TEST,             /* token; answer: flag */
    HR_W_WAITALL,          /* len tokens follow (HR_W_TAG_EXTRA); answer: len hr_wire_status */
    HR_W_IPROBE,           /* peer, tag; answer: flag */
    HR_W_REGION_BEGIN,     /* text: the name (peer 1: the name is NULL) */
    HR_W_REGION_END,
    HR_W_NOW,              /* nothing: the answer's clock (after quiet calls) */
    /* rounds: a round message travels as HR_W_ROUND_MSG, numbered by its sender's round
     * messages; the model says which one a receiver got in the round's answer */
    HR_W_ROUND_SEND,       /* peer, len, token: the priority; answer: flag = the hr_fate */
    HR_W_ROUND_END,        /* len: more; answer: flag = more, tag = the round's hr_fate */
    HR_W_ROUND_RECV,       /* len: the room; only for the model to say the misuse */
    /* supersteps: the model applies puts and gets to memory that holds nothing (their bytes
     * are the ranks'); after hr_sync's answer the ranks move them (engine.c, "supersteps") */
    HR_W_REGISTER,         /* len: the region's bytes */
    HR_W_PUT,              /* peer, tag: the slot, cap: the offset, len */
    HR_W_GET,              /* peer, tag: the slot, cap: the offset, len */
    HR_W_SYNC,
    HR_W_BARRIER
};

/* A superstep's put (hr_wire_rma, then its bytes) or get's request (hr_wire_rma), between
 * ranks. */
typedef struct hr_wire_rma {
    int64_t  slot;
    uint64_t off, len;
} hr_wire_rma;

/* Calls a rank may report quietly, without waiting for an answer, before it waits for one:
 * sends the model completes at once and hr_compute. The bound keeps a proxy's queue short. */
#define HR_W_WINDOW 64

typedef struct hr_wire_req {
    int32_t  op, peer, tag, misuse;
    int32_t  quiet, pad;   /* quiet: answer nothing (the rank does not wait) */
    int32_t  peer2, tag2;  /* HR_W_SENDRECV's receive */
    uint64_t run;          /* the run it belongs to: a late request of an ended run is dropped */
    uint64_t len, cap;
    uint64_t token;
    double   units;
    char     text[400];    /* HR_W_FAIL's line, HR_W_COLL_BEGIN's name */
} hr_wire_req;

enum { HR_W_OK, HR_W_END };

typedef struct hr_wire_rep {
    int32_t  status;       /* HR_W_OK: the call's answer; HR_W_END: the run is over, leave */
    int32_t  src, tag;     /* a receive's or probe's message */
    int32_t  flag;         /* HR_W_TEST, HR_W_IPROBE */
    int32_t  ntaken;       /* hr_wire_taken records that follow */
    int32_t  pad;
    uint64_t len;
    uint64_t token;        /* HR_W_ISEND, HR_W_IRECV */
    uint64_t seq;          /* a send's: the sequence number the model gave its message */
    int64_t  clock;        /* the processor's model clock after the call, in picoseconds */
} hr_wire_rep;

/* A message the call took in the model, in the order it took them: the rank takes its bytes
 * (from src, number seq) into the call's own buffer (token 0) or a pending receive's. */
typedef struct hr_wire_taken {
    int32_t  src, tag;
    uint64_t seq, len, token;
} hr_wire_taken;

/* HR_W_WAITALL's answer, one per request. */
typedef struct hr_wire_status {
    int32_t  src, tag;
    uint64_t len;
} hr_wire_status;

/* What a data message is: each kind is numbered apart by its sender. */
enum hr_wire_kind {
    HR_W_MSG,              /* a point-to-point or collective message: seq as the model numbers
                              the sender's messages */
    HR_W_ROUND_MSG,        /* a round's message: seq counts the sender's round messages */
    HR_W_PUT_MSG,          /* a superstep's put, a get's request, a get's reply: taken in */
    HR_W_GET_MSG,          /*   the order each sender sent them (seq unused) */
    HR_W_REPLY_MSG
};

/* The head of a message's bytes on the data communicator. */
typedef struct hr_wire_data {
    int32_t  tag, kind;    /* kind: an hr_wire_kind */
    uint64_t len, seq;
} hr_wire_data;

#endif
