/*
 * fencing.pml -- Promela model of the distributed-lock fencing-token protocol
 * (N = 3 independent Redis nodes; per node a lock key K and a counter F).
 *
 * Compile-time switches (spin -a -D...):
 *   -DNC=2 | -DNC=3     number of lock attempts. Each attempt is one client
 *                       with a fresh unique value v = c+1 (a retrying client
 *                       is modelled as a further attempt).       default 2
 *   -DINITMAX=k         every node's F starts at a nondeterministic value in
 *                       0..k (abstracts earlier history: failed attempts
 *                       that bumped some counters), k <= 3; by node
 *                       symmetry only F[A] >= F[B] >= F[C] is enumerated.
 *                                                                default 1
 *   -DNAIVE             no commit round: T := max of the grants seen; the
 *                       lease is usable iff a majority of grants was seen.
 *   -DTIMING_FAULTS     any key may expire at any time (clock jumps on nodes,
 *                       paused clients) and the client's timing check does
 *                       not notice.  Without it ("no timing faults") a key
 *                       cannot expire while its holder uses the lease; if it
 *                       expires while the holder is still acquiring or
 *                       committing, the holder's timing check fails.
 *   -DRESTART_PLAIN     a node may restart losing K and F (F := 0)
 *   -DRESTART_DURABLE   a node may restart losing K and keeping F
 *   -DRESTART_FLOOR     a node may restart losing K, with F := F + j,
 *                       1 <= j <= FLOOR_JMAX: the clock floor is strictly
 *                       above any value the node ever had (F never
 *                       decreases in this variant, so "ever had" = the
 *                       current F; j = 1 is the tightest legal floor)
 *   -DFLOOR_JMAX=2      also allow the jump j = 2.               default 1
 *   -DQUEUE             the fair waiter queue: a node may also refuse a
 *                       free lock (another waiter is ahead). Any refusal is
 *                       allowed, so every queue order and lapse is covered.
 *   -DMAXR=r            bound on the number of floor restarts (plain and
 *                       durable restarts are unbounded).         default 1
 *   -DCOUNTER_EXPIRY    a node's counter F may expire at any time, with or
 *                       without the lock key (fenceCounterTtl: the real
 *                       counter expires only after an idle horizon, so this
 *                       allows more than can happen).  It is recreated by
 *                       the next script that writes it: an acquire (which
 *                       then increments it) or a commit while K == v (which
 *                       then compares it with T).  Recreation is at the
 *                       clock floor, fixed at expiry as F + j, 1 <= j <=
 *                       FLOOR_JMAX: above every value the counter had,
 *                       which the node's clock guarantees as long as no
 *                       node's clock ran ahead of another's by the horizon
 *                       (docs/FENCING.md, "Counters that expire").
 *   -DEXPIRY_NO_FLOOR   ... recreated at 0 (no clock floor).
 *   -DFLOOR_BEHIND      ... recreated one below the value it had: a floor
 *                       that is not above it (a clock behind by the horizon).
 *   -DCOMMIT_NO_FLOOR   ... an acquire recreates it at the floor, a commit
 *                       at 0 (the commit script without fence_floor).
 *   -DMAXE=e            bound on the number of counter expiries. default 1
 *   one or more of -DCHECK_UNIQUE -DCHECK_ORDER -DCHECK_STALE -DCHECK_MUTEX
 *                       -DCHECK_SANITY (the conjunction of those given is
 *                       checked; SANITY is a non-vacuity probe that must
 *                       fail)
 *   -DORDER_DROP        weaken ORDER to "T(x) > T(y) never happens when x
 *                       precedes y" (to exhibit a strict token inversion)
 *   -DCAS               antirez's alternative at the storage instead of
 *                       tokens: a usable holder registers its random value
 *                       at the storage (unconditionally, once per lease:
 *                       random values carry no order, so the storage cannot
 *                       compare them), and a write is accepted iff the
 *                       registered value is the writer's own.  The lock
 *                       protocol is unchanged; tokens are not looked at.
 *
 * Style: the whole system is ONE process (Sys) whose loop holds guarded
 * d_step commands: every client step and every node step (acquire, commit,
 * release, expiry, restart) is one indivisible transition, and the model
 * checker explores every order of them.  That covers client pauses of any
 * length, messages delivered in any order, late (after the client decided)
 * or never.
 *  - A reply is seen by the client (recorded while it is still collecting)
 *    or not (lost, or arriving after the decision): both are explored.
 *  - Release is immediate and atomic (if K == v then K := empty).  A delayed
 *    or lost release is subsumed by expiry, which may always remove the key
 *    of an attempt that has ended.
 *  - Storage reads follow the same rule as writes, so only writes are
 *    modelled.  A usable holder may write any number of times, at any later
 *    moment, before it gives the lease up.
 *  - Ghost variables that only the chosen property reads are compiled in
 *    only for that property (they never influence the protocol).
 *  - Pure state-space reductions that do not change any behaviour: commit
 *    messages that can only be answered 0 are dropped (normC/dropCom); the
 *    token and ghost history of an attempt that ended without a usable
 *    lease are reset (tidy); scratch variables are reset after every step.
 *  - Properties are assertions evaluated after every step (stepEnd).
 */

#ifndef NC
#define NC 2
#endif
#ifndef INITMAX
#define INITMAX 1
#endif
#ifndef MAXR
#define MAXR 1
#endif
#ifndef FLOOR_JMAX
#define FLOOR_JMAX 1
#endif
#ifndef MAXE
#define MAXE 1
#endif

#define NN   3           /* nodes A=0, B=1, C=2 */
#define MAJ  2           /* majority of NN */
#define ALLN 7           /* bitmask of all nodes */

/* client phases */
#define IDLE 0           /* not started */
#define ACQ  1           /* acquire messages sent, collecting replies */
#define COM  2           /* token chosen, collecting commit replies */
#define USE  3           /* lease usable: may write with token tok[c] */
#define DONE 4           /* attempt ended (failed, or lease given up) */

#if defined(CHECK_ORDER) || defined(CHECK_STALE)
#define GHOST_PREC 1
#endif
#if defined(RESTART_PLAIN) || defined(RESTART_DURABLE) || defined(RESTART_FLOOR)
#define RESTARTS_ON 1
#endif

byte K[NN];              /* lock key: 0 = empty, else value c+1 of attempt c */
byte F[NN];              /* fencing counter, never expires */

byte phase[NC];
byte pendAcq[NC];        /* acquire messages in flight (node bitmask) */
byte pendCom[NC];        /* commit messages in flight (node bitmask) */
/* grant replies the client saw, kept as a summary (all the client needs):
   gSeen = nodes whose grant it saw, tMax = largest value seen,
   eSeen = nodes whose seen reply equals tMax */
byte gSeen[NC];
byte tMax[NC];
byte eSeen[NC];
byte comSeen[NC];        /* nodes the client counts as committed */
byte tok[NC];            /* token T of the attempt */
byte expired;            /* bit c: an honest clock expired a key of c before
                            c decided, so c's timing check fails */
#ifdef RESTART_FLOOR
byte restarts;           /* floor restarts so far (F grows with each) */
#endif
#ifdef COUNTER_EXPIRY
byte gone;               /* bit n: node n's counter has expired (F[n] = 0) */
byte fl[NN];             /* the value node n's expired counter comes back at */
byte expiries;           /* counter expiries so far */
byte recreated;          /* expired counters recreated so far (SANITY) */
#endif

/* ---- ghost state (history) read only by the properties ---- */
byte usable;             /* bit c: attempt c obtained a usable lease */
#ifdef GHOST_PREC
byte granted[NC];        /* nodes where c's acquire was granted */
byte committed[NC];      /* nodes counted committed when c's lease became
                            usable (the majority that made it usable) */
byte gb[NC*NC];          /* gb[x*NC+y] bit n: x's tenure on n came before y's */
short precB;             /* bit x*NC+y: x was usable before y began acquiring */
#endif
#if defined(CHECK_STALE) || defined(CHECK_SANITY)
#define STORAGE 1
#endif
#ifdef STORAGE
#ifdef CAS
byte casReg;             /* bit c: c registered its value during its lease */
#else
byte hw;                 /* storage: highest accepted token */
#endif
byte owner;              /* storage: value that holds hw (CAS: the value
                            registered last) */
byte wrote;              /* bit c: storage accepted a write from c */
bit  staleBad;           /* storage accepted a write from x after one from y
                            although x precedes y */
#endif

/* scratch variables, used only inside d_steps and reset to 0 at the end of
   every step, so they never distinguish states (not `hidden`, so that
   breadth-first search can be used for short counterexamples) */
byte x, y, h_cnt, t, gm, em, i1, i2;

#define B(m,i)    (((m) >> (i)) & 1)
#define POP(m)    (B(m,0) + B(m,1) + B(m,2))
#define USABLE(i) B(usable, i)
/* x precedes y: x was usable before y began acquiring, or on some node where
   both were committed x's tenure came first */
#define PREC(a,b) (B(precB, (a)*NC+(b)) || \
                   ((gb[(a)*NC+(b)] & committed[a] & committed[b]) != 0))

/* ----------------------------- properties ----------------------------- */
#define PU(a,b) (!(USABLE(a) && USABLE(b) && tok[a] == tok[b]))
#ifdef ORDER_DROP
/* weaker ORDER used to exhibit a strict inversion: only T(x) > T(y) fails */
#define PO(a,b) (!(USABLE(a) && USABLE(b) && PREC(a,b) && tok[a] > tok[b]))
#else
#define PO(a,b) (!(USABLE(a) && USABLE(b) && PREC(a,b) && tok[a] >= tok[b]))
#endif
#define INUSE(a) (phase[a] == USE)
#if NC == 2
#define UNIQUE_OK (PU(0,1))
#define ORDER_OK  (PO(0,1) && PO(1,0))
#define MUTEX_OK  (!(INUSE(0) && INUSE(1)))
#elif NC == 3
#define UNIQUE_OK (PU(0,1) && PU(0,2) && PU(1,2))
#define ORDER_OK  (PO(0,1) && PO(1,0) && PO(0,2) && PO(2,0) && PO(1,2) && PO(2,1))
#define MUTEX_OK  ((INUSE(0) + INUSE(1) + INUSE(2)) <= 1)
#else
#error "NC must be 2 or 3"
#endif
#define STALE_OK  (!staleBad)
/* SANITY is EXPECTED TO FAIL: it claims that no run lets every attempt get
   a usable lease and get a write accepted (after a restart, when restarts
   are bounded).  Its counterexample shows the hold results are not vacuous. */
#define ALLC ((1 << NC) - 1)
#ifdef RESTART_FLOOR
#define SANITY_OK (!(usable == ALLC && wrote == ALLC && restarts == MAXR))
#elif defined(COUNTER_EXPIRY)
#define SANITY_OK (!(usable == ALLC && wrote == ALLC && recreated > 0))
#else
#define SANITY_OK (!(usable == ALLC && wrote == ALLC))
#endif

/* several CHECK_ switches may be given: their conjunction is checked */
#ifdef CHECK_UNIQUE
#define P1 UNIQUE_OK
#else
#define P1 true
#endif
#ifdef CHECK_ORDER
#define P2 ORDER_OK
#else
#define P2 true
#endif
#ifdef CHECK_STALE
#define P3 STALE_OK
#else
#define P3 true
#endif
#ifdef CHECK_MUTEX
#define P4 MUTEX_OK
#else
#define P4 true
#endif
#ifdef CHECK_SANITY
#define P5 SANITY_OK
#else
#define P5 true
#endif
#if !defined(CHECK_UNIQUE) && !defined(CHECK_ORDER) && !defined(CHECK_STALE) && !defined(CHECK_MUTEX) && !defined(CHECK_SANITY)
#error "define at least one of CHECK_UNIQUE CHECK_ORDER CHECK_STALE CHECK_MUTEX CHECK_SANITY"
#endif
#define PROP (P1 && P2 && P3 && P4 && P5)

/* The property is asserted at the end of every transition (every d_step
   below ends with stepEnd()), so it is checked in every reachable state and
   a counterexample ends exactly at the violating step. */
#define CHECK_PROPS assert(P1); assert(P2); assert(P3); assert(P4); assert(P5)

/* State-space hygiene: once attempt c has ended without a usable lease and
   has no commit in flight, its token and ghost history can no longer matter
   (properties only relate usable leases), so reset them to canonical 0. */
#ifdef GHOST_PREC
#define GHOST_TIDY(c) \
    granted[c] = 0; committed[c] = 0; \
    i1 = 0; \
    do \
    :: i1 < NC -> \
       gb[i1*NC + c] = 0; gb[c*NC + i1] = 0; \
       precB = precB & ~((1 << (i1*NC + c)) | (1 << (c*NC + i1))); i1++ \
    :: else -> break \
    od;
#define DEAD(c) (phase[c] == DONE && !USABLE(c))
#else
#define GHOST_TIDY(c)
#endif
inline tidy(c)
{
  if
  :: phase[c] == DONE && pendCom[c] == 0 && !USABLE(c) ->
     tok[c] = 0;
     GHOST_TIDY(c)
  :: else
  fi
}

/* A commit from c to node n can only ever reply 0 (no effect, not counted)
   once c's acquire at n has been delivered and K[n] != v: K[n] never
   becomes v again.  Such messages are dropped at once (pure state-space
   canonicalisation): invariant "acquire at n delivered and K[n] != v
   implies no commit from c to n in flight", restored by normC/dropCom at
   every step that can break it. */
inline normC(c)
{
  i2 = 0;
  do
  :: i2 < NN ->
     if
     :: !B(pendAcq[c], i2) && K[i2] != c + 1 ->
        pendCom[c] = pendCom[c] & (ALLN ^ (1 << i2))
     :: else
     fi; i2++
  :: else -> break
  od;
  tidy(c)
}

/* K[n] just stopped being c's value (c's acquire at n was delivered) */
inline dropCom(c, n)
{
  pendCom[c] = pendCom[c] & (ALLN ^ (1 << n));
  tidy(c)
}

/* end of every step: reset scratch variables, check the property */
inline stepEnd()
{
  x = 0; y = 0; h_cnt = 0; t = 0; gm = 0; em = 0; i1 = 0; i2 = 0;
  CHECK_PROPS
}

/* ------------------------------ node steps ------------------------------ */

#ifdef COUNTER_EXPIRY
/* a script that writes node n's counter finds it expired: it comes back at
   V (the floor fixed at expiry, or 0) before the script goes on */
#define RECREATE(n, V) \
    if \
    :: B(gone, n) -> \
       F[n] = V; fl[n] = 0; gone = gone & (ALLN ^ (1 << n)); recreated++; \
       printf("EV: node %d recreates its counter at %d\n", n, F[n]) \
    :: else \
    fi;
#ifdef COMMIT_NO_FLOOR
#define COMMIT_FLOOR(n) 0
#else
#define COMMIT_FLOOR(n) fl[n]
#endif

/* node n's counter expires; J: how far above its value the floor is */
inline counterExpire(n, J)
{
  d_step {
    !B(gone, n) && F[n] > 0 && expiries < MAXE ->
    expiries++;
#if defined(EXPIRY_NO_FLOOR)
    fl[n] = 0;
#elif defined(FLOOR_BEHIND)
    fl[n] = F[n] - 1;
#else
    fl[n] = F[n] + J;
#endif
    printf("EV: node %d's counter (F=%d) expires; it will come back at %d\n", n, F[n], fl[n]);
    F[n] = 0; gone = gone | (1 << n);
    stepEnd()
  }
}
#define COMMIT_RECREATE(c, n) if :: K[n] == c + 1 -> RECREATE(n, COMMIT_FLOOR(n)) :: else fi;
#else
#define RECREATE(n, V)
#define COMMIT_RECREATE(c, n)
#endif


/* node n executes c's acquire: if K empty then K := v; F++; reply F else 0.
   SEEN = 1: the client sees the reply (only possible while it collects);
   SEEN = 0: the reply is lost, late, or the client already decided. */
#ifdef GHOST_PREC
#define GHOST_GRANT(c,n) \
    if \
    :: DEAD(c) -> skip /* history of a dead attempt is irrelevant */ \
    :: else -> \
    x = 0; \
    do \
    :: x < NC -> \
       if \
       :: x != c && B(granted[x], n) -> gb[x*NC + c] = gb[x*NC + c] | (1 << n) \
       :: else \
       fi; x++ \
    :: else -> break \
    od; \
    granted[c] = granted[c] | (1 << n) \
    fi;
#else
#define GHOST_GRANT(c,n)
#endif

inline deliverAcq(c, n, SEEN)
{
  d_step {
    B(pendAcq[c], n) && (SEEN == 0 || phase[c] == ACQ) ->
    pendAcq[c] = pendAcq[c] ^ (1 << n);
    if
    :: K[n] == 0 ->
       K[n] = c + 1; RECREATE(n, fl[n]) F[n] = F[n] + 1;
       GHOST_GRANT(c, n)
       if
       :: SEEN ->
          gSeen[c] = gSeen[c] | (1 << n);
          if
          :: F[n] > tMax[c] -> tMax[c] = F[n]; eSeen[c] = (1 << n)
          :: F[n] == tMax[c] -> eSeen[c] = eSeen[c] | (1 << n)
          :: else
          fi;
          printf("EV: node %d grants c%d: F=%d (reply seen)\n", n, c, F[n])
       :: else ->
          printf("EV: node %d grants c%d: F=%d (reply not seen)\n", n, c, F[n])
       fi
    :: else ->
       printf("EV: node %d refuses c%d (K held by c%d)\n", n, c, K[n] - 1);
       dropCom(c, n)
    fi;
    stepEnd()
  }
}

#ifdef QUEUE
/* the fair waiter queue: node n refuses c's acquire although K is empty,
   because another waiter is ahead. Any such refusal is allowed, so every
   queue order, ticket and lapse is covered. (Outside deliverAcq: a d_step
   resolves its own nondeterminism deterministically.) */
inline queueRefuse(c, n)
{
  d_step {
    B(pendAcq[c], n) && K[n] == 0 ->
    pendAcq[c] = pendAcq[c] ^ (1 << n);
    printf("EV: node %d refuses c%d (a waiter is ahead)\n", n, c);
    dropCom(c, n);
    stepEnd()
  }
}
#define QUEUED(c) :: queueRefuse(c,0) :: queueRefuse(c,1) :: queueRefuse(c,2)
#else
#define QUEUED(c)
#endif

/* node n executes c's commit with token T = tok[c]:
   if K != v reply 0; if F > T reply -1; if F < T then F := T; reply 1 */

inline deliverCom(c, n, SEEN)
{
  d_step {
    B(pendCom[c], n) && (SEEN == 0 || phase[c] == COM) ->
    pendCom[c] = pendCom[c] ^ (1 << n);
    COMMIT_RECREATE(c, n)
    if
    :: K[n] != c + 1 -> printf("EV: node %d commit c%d -> 0\n", n, c)
    :: K[n] == c + 1 && F[n] > tok[c] -> printf("EV: node %d commit c%d -> -1\n", n, c)
    :: K[n] == c + 1 && F[n] <= tok[c] ->
       F[n] = tok[c];
       if :: SEEN -> comSeen[c] = comSeen[c] | (1 << n) :: else fi;
       printf("EV: node %d commit c%d -> 1, F=%d (seen=%d)\n", n, c, F[n], SEEN)
    fi;
    tidy(c);
    stepEnd()
  }
}


/* the lock key on node n expires */
inline expire(n)
{
  d_step {
#ifdef TIMING_FAULTS
    K[n] != 0 ->
#else
    K[n] != 0 && phase[K[n] - 1] != USE ->
    if
    :: phase[K[n] - 1] == ACQ || phase[K[n] - 1] == COM ->
       expired = expired | (1 << (K[n] - 1))
    :: else
    fi;
#endif
    printf("EV: key of c%d on node %d expires\n", K[n] - 1, n);
    x = K[n] - 1; K[n] = 0;
    dropCom(x, n);
    stepEnd()
  }
}

#ifdef RESTARTS_ON
/* node n restarts: K is lost; F per variant (J = floor jump) */
inline restart(n, J)
{
  d_step {
#if defined(RESTART_FLOOR)
    restarts < MAXR -> restarts++;
#elif defined(RESTART_PLAIN)
    /* unbounded (F stays bounded); a restart of an empty node is a no-op */
    (K[n] != 0 || F[n] != 0) ->
#else
    /* durable: unbounded; a restart of a node without key is a no-op */
    K[n] != 0 ->
#endif
#if defined(RESTART_PLAIN)
    F[n] = 0;
#elif defined(RESTART_FLOOR)
    F[n] = F[n] + J;
#endif
    printf("EV: node %d restarts, F=%d\n", n, F[n]);
    if
    :: K[n] != 0 -> x = K[n] - 1; K[n] = 0; dropCom(x, n)
    :: else
    fi;
    stepEnd()
  }
}
#endif

/* ------------------------------ client steps ------------------------------ */

inline release(c)
{
  if :: K[0] == c + 1 -> K[0] = 0 :: else fi;
  if :: K[1] == c + 1 -> K[1] = 0 :: else fi;
  if :: K[2] == c + 1 -> K[2] = 0 :: else fi
}

/* 1. begin: (ghost) note the leases already usable; send acquire everywhere */
#ifdef GHOST_PREC
#define GHOST_BEGIN(c) \
    y = 0; \
    do \
    :: y < NC -> \
       if :: USABLE(y) -> precB = precB | (1 << (y*NC + c)) :: else fi; y++ \
    :: else -> break \
    od;
#else
#define GHOST_BEGIN(c)
#endif

inline begin(c)
{
  d_step {
    phase[c] == IDLE ->
    GHOST_BEGIN(c)
    phase[c] = ACQ; pendAcq[c] = ALLN;
    printf("EV: c%d begins acquiring\n", c);
    stepEnd()
  }
}

/* 2.+3. decide (at any moment) from the replies seen so far */
#ifdef NAIVE
#define AFTER_GRANTS(c) \
    comSeen[c] = gm;          /* naive: every grant seen counts, no commit */
#else
#define AFTER_GRANTS(c) \
    comSeen[c] = em;          /* nodes that replied exactly T are committed */ \
    pendCom[c] = ALLN ^ em;   /* commit the others */
#endif

inline decide(c)
{
  d_step {
    phase[c] == ACQ ->
    h_cnt = POP(gSeen[c]); t = tMax[c]; gm = gSeen[c]; em = eSeen[c];
    gSeen[c] = 0; tMax[c] = 0; eSeen[c] = 0;
    if
    :: h_cnt < MAJ ->
       printf("EV: c%d saw %d grant(s): fails, releases\n", c, h_cnt);
       phase[c] = DONE; release(c);
       expired = expired & ~(1 << c)
    :: else ->
       tok[c] = t; phase[c] = COM;
       AFTER_GRANTS(c)
       printf("EV: c%d saw %d grants, T=%d\n", c, h_cnt, t)
    fi;
    normC(c);
    stepEnd()
  }
}

/* 4. usable iff a majority is committed and the timing check passes */
#ifdef GHOST_PREC
#define GHOST_LEASE(c) committed[c] = comSeen[c];
#else
#define GHOST_LEASE(c)
#endif
inline getLease(c)
{
  d_step {
    phase[c] == COM && POP(comSeen[c]) >= MAJ && !B(expired, c) ->
    phase[c] = USE; usable = usable | (1 << c);
    GHOST_LEASE(c)
    comSeen[c] = 0;
    expired = expired & ~(1 << c);
    printf("EV: c%d lease USABLE with token %d\n", c, tok[c]);
    stepEnd()
  }
}

/* 4'. ... or it gives up: too few commits seen, or timing check fails */
inline giveUp(c)
{
  d_step {
    phase[c] == COM ->
    printf("EV: c%d gets no usable lease, releases\n", c);
    phase[c] = DONE; comSeen[c] = 0; release(c);
    expired = expired & ~(1 << c); normC(c);
    stepEnd()
  }
}

/* 5. the holder stops using the lease and releases */
inline endLease(c)
{
  d_step {
    phase[c] == USE ->
    printf("EV: c%d ends its lease, releases\n", c);
    phase[c] = DONE; release(c); normC(c);
    stepEnd()
  }
}

#ifdef CHECK_STALE
#define STALE_SCAN(c) \
       y = 0; \
       do \
       :: y < NC -> \
          if :: y != c && B(wrote, y) && PREC(c, y) -> staleBad = 1 :: else fi; y++ \
       :: else -> break \
       od;
#else
#define STALE_SCAN(c)
#endif
#if defined(STORAGE) && defined(CAS)
/* antirez's check-and-set: the holder registers its value (once per lease),
   then a write is accepted iff the registered value is its own */
inline casRegister(c)
{
  d_step {
    phase[c] == USE && !B(casReg, c) ->
    casReg = casReg | (1 << c); owner = c + 1;
    printf("EV: storage registers value of c%d (CAS owner := c%d)\n", c, c);
    stepEnd()
  }
}
inline write(c)
{
  d_step {
    phase[c] == USE ->
    if
    :: owner == c + 1 ->
       STALE_SCAN(c)
       wrote = wrote | (1 << c);
       printf("EV: storage accepts write of c%d (CAS owner is c%d)\n", c, c)
    :: else ->
       printf("EV: storage rejects write of c%d (registered value %d, its own %d)\n", c, owner, c + 1)
    fi;
    stepEnd()
  }
}
#define WRITE(c) :: casRegister(c) :: write(c)
#elif defined(STORAGE)
/* storage: accept iff t > hw or (t == hw and owner == v) */
inline write(c)
{
  d_step {
    phase[c] == USE ->
    if
    :: tok[c] > hw || (tok[c] == hw && owner == c + 1) ->
       STALE_SCAN(c)
       hw = tok[c]; owner = c + 1; wrote = wrote | (1 << c);
       printf("EV: storage accepts write of c%d, token %d\n", c, tok[c])
    :: else ->
       printf("EV: storage rejects write of c%d, token %d (hw=%d)\n", c, tok[c], hw)
    fi;
    stepEnd()
  }
}
#define WRITE(c) :: write(c)
#else
#define WRITE(c)
#endif

/* ------------------------------- system ------------------------------- */

#define CLIENT(c) \
  :: begin(c) :: decide(c) :: getLease(c) :: giveUp(c) :: endLease(c) WRITE(c) \
  :: deliverAcq(c,0,1) :: deliverAcq(c,1,1) :: deliverAcq(c,2,1) \
  :: deliverAcq(c,0,0) :: deliverAcq(c,1,0) :: deliverAcq(c,2,0) QUEUED(c)
#ifdef NAIVE
#define COMMITS(c)
#else
#define COMMITS(c) \
  :: deliverCom(c,0,1) :: deliverCom(c,1,1) :: deliverCom(c,2,1) \
  :: deliverCom(c,0,0) :: deliverCom(c,1,0) :: deliverCom(c,2,0)
#endif

/* F[n] := nondeterministic value in 0..min(INITMAX, LIM) (larger values are
   listed first only so that depth-first search meets skewed starts early) */
#define INITF(n, LIM) \
    if \
    :: INITMAX >= 3 && LIM >= 3 -> F[n] = 3 \
    :: INITMAX >= 2 && LIM >= 2 -> F[n] = 2 \
    :: INITMAX >= 1 && LIM >= 1 -> F[n] = 1 \
    :: F[n] = 0 \
    fi

active proctype Sys()
{
  atomic {
    /* nodes are interchangeable in this model, so it suffices to start
       from counters with F[A] >= F[B] >= F[C] */
    INITF(0, 3); INITF(1, F[0]); INITF(2, F[1]);
    printf("EV: initial counters A=%d B=%d C=%d\n", F[0], F[1], F[2])
  };
end:
  do
  CLIENT(0) COMMITS(0)
  CLIENT(1) COMMITS(1)
#if NC > 2
  CLIENT(2) COMMITS(2)
#endif
  :: expire(0) :: expire(1) :: expire(2)
#ifdef COUNTER_EXPIRY
  :: counterExpire(0,1) :: counterExpire(1,1) :: counterExpire(2,1)
#if FLOOR_JMAX >= 2
  :: counterExpire(0,2) :: counterExpire(1,2) :: counterExpire(2,2)
#endif
#endif
#ifdef RESTARTS_ON
  :: restart(0,1) :: restart(1,1) :: restart(2,1)
#if defined(RESTART_FLOOR) && FLOOR_JMAX >= 2
  :: restart(0,2) :: restart(1,2) :: restart(2,2)
#endif
#endif
  od
}
