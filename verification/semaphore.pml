/*
 * semaphore.pml -- Promela model of semaphores (Redlock.semaphore(resource,
 * permits), RedlockSemaphore) over the quorum and fencing-token protocol of
 * fencing.pml (N = 3 independent Redis nodes, one resource).
 *
 * A semaphore of P permits is P slots, each a mutex over the quorum: a
 * permit is one slot held on a majority. Per node: the holders H (bit c: c
 * holds its slot there; the slot table is S[n][s] = c+1 iff c is in H[n]
 * and sl[c] = s, as a holder's value ends in its slot) and ONE counter F
 * for all slots. Every attempt c asks for a slot sl[c], chosen when it
 * begins (a client's sweep over the slots is a sequence of attempts). On a
 * node:
 *   acquire (acquire-permit):  if slot sl[c] is free here then c holds it;
 *                              F++; reply F; else refuse
 * The client takes T := the largest grant seen, counts the nodes that
 * replied exactly T as committed and commits T to the others
 * (commit-shared): reply 0 unless c holds its slot there, -1 if F > T, else
 * F := max(F, T) and reply 1. The lease is usable with a majority committed
 * (and the timing check). Release and expiry remove c's entry alone
 * (release-shared).
 *
 * Compile-time switches (spin -a -D...):
 *   -DNC=2 | -DNC=3     number of attempts (default 2)
 *   -DPERMITS=k         permits, 1 <= k <= 3 (1: a mutex)       default 2
 *   -DINITMAX=k         the counters start at a nondeterministic value in
 *                       0..k, k <= 2 (F[A] >= F[B] >= F[C])   default 0
 *   -DTIMING_FAULTS     any entry may expire at any time
 *   -DRESTART_PLAIN     a node may restart at once, losing its holders and
 *                       its counter (F := 0)
 *   -DRESTART_DURABLE   ... keeping the counter
 *   -DRESTART_FLOOR     ... its counter at the clock floor F + 1 (once)
 *   -DRESTART_DELAYED   ... losing everything, but only after staying down
 *                       longer than every TTL (SPEC R9)
 *   -DCOUNT_PER_NODE    the wrong semaphore: no slots; a node grants while
 *                       fewer than P attempts hold there
 *   -DSTRICT_COMMIT     a remedy for UNIQUE, not in the scripts: a commit
 *                       refuses (-1) also when F == T, so only c's own grant
 *                       or commit brings F to T on a node
 *   -DPROMPT            fewer runs, to find counterexamples fast (only for
 *                       expected-fail checks: a run with it is a run
 *                       without it): every reply is seen, and a client
 *                       decides, or gives up, once every reply is in
 *   one or more of -DCHECK_PERMITS -DCHECK_SLOTS -DCHECK_UNIQUE
 *                       -DCHECK_ORDER -DCHECK_SANITY
 *
 * Properties:
 *   PERMITS never more than P leases in use at once (the semaphore's
 *           promise; P = 1: MUTEX). With 2 attempts and 2 permits it cannot
 *           fail: checked with 3 attempts
 *   SLOTS   two leases in use never hold one slot: each slot is a mutex,
 *           which gives PERMITS for any number of attempts
 *   UNIQUE  two usable leases never share a token. FAILS with 2 permits,
 *           without faults: leases of two slots granted on nodes A and B in
 *           opposite orders each take T = 2 from the node that granted it
 *           second, and commit 2 on the other, whose counter is 2 already.
 *           Holds with one permit, and with -DSTRICT_COMMIT
 *   ORDER   x precedes y => T(x) < T(y), whatever their slots (x was usable
 *           before y began; or, for one slot, x's grant came first on a node
 *           where both were committed, as in fencing.pml)
 *   SANITY  expected to FAIL: two leases in use at once (3 attempts: while
 *           the third has decided on a majority of grants)
 * No storage: permits hold together, so a storage's high-water mark would
 * refuse concurrent holders; the library claims no STALE for semaphores.
 *
 * Reductions that lose no run (up to renaming): attempts begin in the order
 * 0, 1, 2; attempt c asks for a slot in 0..c; with INITMAX = 0 the nodes
 * are first changed in the order A, B, C; as in fencing.pml, commits that can
 * only be answered 0 are dropped and an attempt that no longer matters is
 * reset (tidy). A client's steps are listed progress first, which only
 * orders the depth-first search (the 3-attempt bitstate searches reach
 * runs with three attempts at once sooner).
 */

#ifndef NC
#define NC 2
#endif
#ifndef PERMITS
#define PERMITS 2
#endif
#ifndef INITMAX
#define INITMAX 0
#endif
#if PERMITS < 1 || PERMITS > 3
#error "PERMITS must be 1, 2 or 3"
#endif

#define NN   3
#define MAJ  2
#define ALLN 7

#define IDLE 0
#define ACQ  1
#define COM  2
#define USE  3
#define DONE 4

#if defined(RESTART_PLAIN) || defined(RESTART_DURABLE) || defined(RESTART_FLOOR) || defined(RESTART_DELAYED)
#define RESTARTS_ON 1
#endif

byte H[NN];              /* bit c: c holds its slot on node n */
byte F[NN];
byte sl[NC];             /* the slot attempt c asks for */

byte phase[NC];
byte pendAcq[NC];
byte pendCom[NC];
byte gSeen[NC];
byte tMax[NC];
byte eSeen[NC];
byte comSeen[NC];
byte tok[NC];
byte expired;
#ifdef RESTART_FLOOR
byte restarts;
#endif

/* ghosts */
#if defined(CHECK_UNIQUE) || defined(CHECK_ORDER) || defined(CHECK_SANITY)
#define GHOST_USABLE 1
byte usable;             /* bit c: c's lease has been usable */
#endif
#ifdef CHECK_ORDER
byte granted[NC];
byte committed[NC];
byte gb[NC*NC];          /* gb[x*NC+y] bit n: of one slot, x's grant on n came before y's */
short precB;             /* bit x*NC+y: x was usable before y began */
#endif

#if INITMAX == 0
/* the nodes are symmetric until a step changes one: they are changed first
   in the order A, B, C (any run is one of these up to renaming the nodes) */
byte touched;            /* bit n: a step changed node n */
#define FIRST(n) ((n) == 0 || B(touched, (n) - 1))
#define TOUCH(n) touched = touched | (1 << (n));
#else
#define FIRST(n) true
#define TOUCH(n)
#endif

byte x, y, h_cnt, t, i1, i2;

#define B(m,i)    (((m) >> (i)) & 1)
#define POP(m)    (B(m,0) + B(m,1) + B(m,2))
#define USABLE(i) B(usable, i)
#define HOLDS(n,c) B(H[n], c)
#define HOLDSANY(c) (HOLDS(0,c) || HOLDS(1,c) || HOLDS(2,c))
#define HOLDSUSE(n,c) ((c) < NC && HOLDS(n,c) && phase[c] == USE)
#define PREC(a,b) (B(precB, (a)*NC+(b)) || \
                   ((gb[(a)*NC+(b)] & committed[a] & committed[b]) != 0))
/* slot s is taken on node n */
#if NC == 2
#define TAKEN(n,s) (HOLDS(n,0) && sl[0] == (s) || HOLDS(n,1) && sl[1] == (s))
#else
#define TAKEN(n,s) (HOLDS(n,0) && sl[0] == (s) || HOLDS(n,1) && sl[1] == (s) || HOLDS(n,2) && sl[2] == (s))
#endif
#ifdef COUNT_PER_NODE
#define MAY(n,c) (POP(H[n]) < PERMITS)
#else
#define MAY(n,c) (!TAKEN(n, sl[c]))
#endif

/* ----------------------------- properties ----------------------------- */
#define INUSE(a) (phase[a] == USE)
#define PS(a,b) (!(INUSE(a) && INUSE(b) && sl[a] == sl[b]))
#define PU(a,b) (!(USABLE(a) && USABLE(b) && tok[a] == tok[b]))
#define PO(a,b) (!(USABLE(a) && USABLE(b) && PREC(a,b) && tok[a] >= tok[b]))
#if NC == 2
#define NUSE (INUSE(0) + INUSE(1))
#define UNIQUE_OK (PU(0,1))
#define ORDER_OK  (PO(0,1) && PO(1,0))
#define SLOTS_OK  (PS(0,1))
#define SANITY_OK (NUSE < 2)
#elif NC == 3
#define NUSE (INUSE(0) + INUSE(1) + INUSE(2))
#define UNIQUE_OK (PU(0,1) && PU(0,2) && PU(1,2))
#define ORDER_OK  (PO(0,1) && PO(1,0) && PO(0,2) && PO(2,0) && PO(1,2) && PO(2,1))
#define SLOTS_OK  (PS(0,1) && PS(0,2) && PS(1,2))
#define SANITY_OK (!(NUSE == 2 && (phase[0] == COM || phase[1] == COM || phase[2] == COM)))
#else
#error "NC must be 2 or 3"
#endif
#define PERMITS_OK (NUSE <= PERMITS)

#ifdef CHECK_PERMITS
#define P1 PERMITS_OK
#else
#define P1 true
#endif
#ifdef CHECK_UNIQUE
#define P2 UNIQUE_OK
#else
#define P2 true
#endif
#ifdef CHECK_ORDER
#define P3 ORDER_OK
#else
#define P3 true
#endif
#ifdef CHECK_SANITY
#define P4 SANITY_OK
#else
#define P4 true
#endif
#ifdef CHECK_SLOTS
#ifdef COUNT_PER_NODE
#error "COUNT_PER_NODE has no slots: no CHECK_SLOTS"
#endif
#define P5 SLOTS_OK
#else
#define P5 true
#endif
#if !defined(CHECK_PERMITS) && !defined(CHECK_SLOTS) && !defined(CHECK_UNIQUE) && !defined(CHECK_ORDER) && !defined(CHECK_SANITY)
#error "define at least one of CHECK_PERMITS CHECK_SLOTS CHECK_UNIQUE CHECK_ORDER CHECK_SANITY"
#endif
#define CHECK_PROPS assert(P1); assert(P2); assert(P3); assert(P4); assert(P5)

#ifdef GHOST_USABLE
#define DEAD(c) (phase[c] == DONE && !USABLE(c))
#else
/* without UNIQUE and ORDER a token matters only to its commits in flight */
#define DEAD(c) (phase[c] >= USE)
#endif
/* an attempt whose token no longer matters, with no commit in flight: its
   token and ghost history reset, and its slot once it ended, holds nowhere
   and has no acquire in flight */
inline tidy(c)
{
  if
  :: DEAD(c) && pendCom[c] == 0 ->
     tok[c] = 0;
     if :: phase[c] == DONE && pendAcq[c] == 0 && !HOLDSANY(c) -> sl[c] = 0 :: else fi;
#ifdef CHECK_ORDER
     granted[c] = 0; committed[c] = 0;
     i1 = 0;
     do
     :: i1 < NC ->
        gb[i1*NC + c] = 0; gb[c*NC + i1] = 0;
        precB = precB & ~((1 << (i1*NC + c)) | (1 << (c*NC + i1))); i1++
     :: else -> break
     od
#endif
  :: else
  fi
}

/* a commit of c to n can only be answered 0 once c's acquire at n was
   delivered and n no longer holds c: drop it */
inline normC(c)
{
  i2 = 0;
  do
  :: i2 < NN ->
     if
     :: !B(pendAcq[c], i2) && !HOLDS(i2, c) -> pendCom[c] = pendCom[c] & (ALLN ^ (1 << i2))
     :: else
     fi; i2++
  :: else -> break
  od;
  tidy(c)
}

inline stepEnd()
{
  x = 0; y = 0; h_cnt = 0; t = 0; i1 = 0; i2 = 0;
  CHECK_PROPS
}

/* ------------------------------ node steps ------------------------------ */

#ifdef CHECK_ORDER
#define GHOST_GRANT(c,n) \
    if \
    :: DEAD(c) -> skip \
    :: else -> \
    x = 0; \
    do \
    :: x < NC -> \
       if \
       :: x != c && B(granted[x], n) && sl[x] == sl[c] -> gb[x*NC + c] = gb[x*NC + c] | (1 << n) \
       :: else \
       fi; x++ \
    :: else -> break \
    od; \
    granted[c] = granted[c] | (1 << n) \
    fi;
#else
#define GHOST_GRANT(c,n)
#endif

#ifdef PROMPT
#define NOLOSS(c, P) (phase[c] != P)
#define ALLIN(m) ((m) == 0)
#else
#define NOLOSS(c, P) true
#define ALLIN(m) true
#endif

/* node n runs c's acquire (acquire-permit) */
inline deliverAcq(c, n, SEEN)
{
  d_step {
    B(pendAcq[c], n) && (SEEN == 0 && NOLOSS(c, ACQ) || SEEN == 1 && phase[c] == ACQ) && FIRST(n) ->
    pendAcq[c] = pendAcq[c] ^ (1 << n); TOUCH(n)
    if
    :: MAY(n, c) ->
       H[n] = H[n] | (1 << c); F[n] = F[n] + 1; t = F[n];
       GHOST_GRANT(c, n)
       if
       :: SEEN ->
          gSeen[c] = gSeen[c] | (1 << n);
          if
          :: t > tMax[c] -> tMax[c] = t; eSeen[c] = (1 << n)
          :: t == tMax[c] -> eSeen[c] = eSeen[c] | (1 << n)
          :: else
          fi
       :: else
       fi;
#ifdef COUNT_PER_NODE
       printf("EV: node %d grants c%d (%d held there): %d (seen=%d)\n", n, c, POP(H[n]), t, SEEN)
    :: else ->
       printf("EV: node %d refuses c%d (%d held there)\n", n, c, POP(H[n]));
#else
       printf("EV: node %d grants c%d (slot %d): %d (seen=%d)\n", n, c, sl[c], t, SEEN)
    :: else ->
       printf("EV: node %d refuses c%d (slot %d taken)\n", n, c, sl[c]);
#endif
       pendCom[c] = pendCom[c] & (ALLN ^ (1 << n)); tidy(c)
    fi;
    stepEnd()
  }
}

#ifdef STRICT_COMMIT
#define ABOVE(n,c) (F[n] >= tok[c])
#else
#define ABOVE(n,c) (F[n] > tok[c])
#endif

/* node n runs c's commit of T = tok[c] (commit-shared) */
inline deliverCom(c, n, SEEN)
{
  d_step {
    B(pendCom[c], n) && (SEEN == 0 && NOLOSS(c, COM) || SEEN == 1 && phase[c] == COM) && FIRST(n) ->
    pendCom[c] = pendCom[c] ^ (1 << n); TOUCH(n)
    if
    :: !HOLDS(n, c) -> printf("EV: node %d commit c%d -> 0\n", n, c)
    :: HOLDS(n, c) && ABOVE(n, c) -> printf("EV: node %d commit c%d -> -1, F=%d\n", n, c, F[n])
    :: else ->
       if :: F[n] < tok[c] -> F[n] = tok[c] :: else fi;
       if :: SEEN -> comSeen[c] = comSeen[c] | (1 << n) :: else fi;
       printf("EV: node %d commit c%d -> 1 (seen=%d), F=%d\n", n, c, SEEN, F[n])
    fi;
    tidy(c);
    stepEnd()
  }
}

/* c's entry on node n lapses */
inline expire(n, c)
{
  d_step {
#ifdef TIMING_FAULTS
    HOLDS(n, c) ->
#else
    HOLDS(n, c) && phase[c] != USE ->
    if
    :: phase[c] == ACQ || phase[c] == COM -> expired = expired | (1 << c)
    :: else
    fi;
#endif
    printf("EV: c%d's entry on node %d expires\n", c, n);
    H[n] = H[n] & ~(1 << c);
    normC(c);
    stepEnd()
  }
}

#ifdef RESTARTS_ON
inline restart(n)
{
  d_step {
#if defined(RESTART_FLOOR)
    restarts < 1 && FIRST(n) -> restarts++; TOUCH(n)
    F[n] = F[n] + 1;
#elif defined(RESTART_DURABLE)
    H[n] != 0 ->
#elif defined(RESTART_DELAYED)
#ifdef TIMING_FAULTS
    (H[n] != 0 || F[n] != 0) ->
#else
    (H[n] != 0 || F[n] != 0) && !HOLDSUSE(n, 0) && !HOLDSUSE(n, 1) && !HOLDSUSE(n, 2) ->
    x = 0;
    do
    :: x < NC ->
       if :: HOLDS(n, x) && (phase[x] == ACQ || phase[x] == COM) -> expired = expired | (1 << x) :: else fi; x++
    :: else -> break
    od;
#endif
    F[n] = 0;
#else
    (H[n] != 0 || F[n] != 0) ->
    F[n] = 0;
#endif
    printf("EV: node %d restarts, F=%d\n", n, F[n]);
    H[n] = 0;
    x = 0;
    do
    :: x < NC -> y = x; normC(y); x = y + 1
    :: else -> break
    od;
    stepEnd()
  }
}
#define RESTARTS :: restart(0) :: restart(1) :: restart(2)
#else
#define RESTARTS
#endif

/* ------------------------------ client steps ------------------------------ */

inline release(c)
{
  H[0] = H[0] & ~(1 << c); H[1] = H[1] & ~(1 << c); H[2] = H[2] & ~(1 << c)
}

/* 1. begin: ask for slot s (c's choice up to renaming the slots), note the
   leases already usable, send the acquire everywhere */
inline begin(c, s)
{
  d_step {
#ifdef COUNT_PER_NODE
    phase[c] == IDLE && (c == 0 || phase[c - 1] != IDLE) && s == 0 ->
#else
    phase[c] == IDLE && (c == 0 || phase[c - 1] != IDLE) && s < PERMITS && s <= c ->
#endif
    sl[c] = s;
#ifdef CHECK_ORDER
    y = 0;
    do
    :: y < NC ->
       if :: USABLE(y) -> precB = precB | (1 << (y*NC + c)) :: else fi; y++
    :: else -> break
    od;
#endif
    phase[c] = ACQ; pendAcq[c] = ALLN;
#ifdef COUNT_PER_NODE
    printf("EV: c%d begins acquiring\n", c);
#else
    printf("EV: c%d begins acquiring slot %d\n", c, s);
#endif
    stepEnd()
  }
}

inline decide(c)
{
  d_step {
    phase[c] == ACQ && ALLIN(pendAcq[c]) ->
    h_cnt = POP(gSeen[c]); t = tMax[c];
    if
    :: h_cnt < MAJ ->
       printf("EV: c%d saw %d grant(s): fails, releases\n", c, h_cnt);
       phase[c] = DONE; release(c);
       expired = expired & ~(1 << c)
    :: else ->
       tok[c] = t; phase[c] = COM;
       comSeen[c] = eSeen[c]; pendCom[c] = ALLN ^ eSeen[c];
       printf("EV: c%d saw %d grants, T=%d\n", c, h_cnt, t)
    fi;
    gSeen[c] = 0; tMax[c] = 0; eSeen[c] = 0;
    normC(c);
    stepEnd()
  }
}

inline getLease(c)
{
  d_step {
    phase[c] == COM && POP(comSeen[c]) >= MAJ && !B(expired, c) ->
    phase[c] = USE;
#ifdef GHOST_USABLE
    usable = usable | (1 << c);
#endif
#ifdef CHECK_ORDER
    committed[c] = comSeen[c];
#endif
    comSeen[c] = 0;
    printf("EV: c%d lease USABLE with token %d\n", c, tok[c]);
    tidy(c);
    stepEnd()
  }
}

inline giveUp(c)
{
  d_step {
    phase[c] == COM && ALLIN(pendCom[c]) ->
    printf("EV: c%d gets no usable lease, releases\n", c);
    phase[c] = DONE; comSeen[c] = 0; release(c);
    expired = expired & ~(1 << c); normC(c);
    stepEnd()
  }
}

inline endLease(c)
{
  d_step {
    phase[c] == USE ->
    printf("EV: c%d ends its lease, releases\n", c);
    phase[c] = DONE; release(c); normC(c);
    stepEnd()
  }
}

/* ------------------------------- system ------------------------------- */

#define CLIENT(c) \
  :: deliverAcq(c,0,1) :: deliverAcq(c,1,1) :: deliverAcq(c,2,1) \
  :: deliverCom(c,0,1) :: deliverCom(c,1,1) :: deliverCom(c,2,1) \
  :: getLease(c) :: decide(c) :: begin(c, 0) :: begin(c, 1) :: begin(c, 2) \
  :: endLease(c) :: giveUp(c) \
  :: deliverAcq(c,0,0) :: deliverAcq(c,1,0) :: deliverAcq(c,2,0) \
  :: deliverCom(c,0,0) :: deliverCom(c,1,0) :: deliverCom(c,2,0) \
  :: expire(0,c) :: expire(1,c) :: expire(2,c)

#define INITF(n, LIM) \
    if \
    :: INITMAX >= 2 && LIM >= 2 -> F[n] = 2 \
    :: INITMAX >= 1 && LIM >= 1 -> F[n] = 1 \
    :: F[n] = 0 \
    fi

active proctype Sys()
{
  atomic {
    INITF(0, 2); INITF(1, F[0]); INITF(2, F[1]);
    printf("EV: initial counters A=%d B=%d C=%d\n", F[0], F[1], F[2])
  };
end:
  do
  CLIENT(0)
  CLIENT(1)
#if NC > 2
  CLIENT(2)
#endif
  RESTARTS
  od
}
