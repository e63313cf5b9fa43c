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
 *                       that bumped some counters), k <= 3.      default 2
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
 *                       j in {1,2}: the clock floor is strictly above any
 *                       value the node ever had (F never decreases in this
 *                       variant, so "ever had" = the current F)
 *   -DMAXR=r            bound on the number of node restarts.   default 1
 *   exactly one of -DCHECK_UNIQUE -DCHECK_ORDER -DCHECK_STALE -DCHECK_MUTEX
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
 */

#ifndef NC
#define NC 2
#endif
#ifndef INITMAX
#define INITMAX 2
#endif
#ifndef MAXR
#define MAXR 1
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
byte seen[NC*NN];        /* acquire reply the client saw (0 = none/denied/lost) */
byte comSeen[NC];        /* nodes the client counts as committed */
byte tok[NC];            /* token T of the attempt */
byte expired;            /* bit c: an honest clock expired a key of c before
                            c decided, so c's timing check fails */
#ifdef RESTARTS_ON
byte restarts;
#endif

/* ---- ghost state (history) read only by the properties ---- */
byte usable;             /* bit c: attempt c obtained a usable lease */
#ifdef GHOST_PREC
byte granted[NC];        /* nodes where c's acquire was granted */
byte committed[NC];      /* nodes where c's tenure was committed */
byte gb[NC*NC];          /* gb[x*NC+y] bit n: x's tenure on n came before y's */
short precB;             /* bit x*NC+y: x was usable before y began acquiring */
#endif
#ifdef CHECK_STALE
byte hw;                 /* storage: highest accepted token */
byte owner;              /* storage: value that holds hw */
byte wrote;              /* bit c: storage accepted a write from c */
bit  staleBad;           /* storage accepted a write from x after one from y
                            although x precedes y */
#endif

hidden byte x, y, h_cnt, t, gm, em;   /* scratch, only inside d_steps */

#define B(m,i)    (((m) >> (i)) & 1)
#define POP(m)    (B(m,0) + B(m,1) + B(m,2))
#define USABLE(i) B(usable, i)
/* x precedes y: x was usable before y began acquiring, or on some node where
   both were committed x's tenure came first */
#define PREC(a,b) (B(precB, (a)*NC+(b)) || \
                   ((gb[(a)*NC+(b)] & committed[a] & committed[b]) != 0))

/* ----------------------------- properties ----------------------------- */
#define PU(a,b) (!(USABLE(a) && USABLE(b) && tok[a] == tok[b]))
#define PO(a,b) (!(USABLE(a) && USABLE(b) && PREC(a,b) && tok[a] >= tok[b]))
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

#if defined(CHECK_UNIQUE)
#define PROP UNIQUE_OK
#elif defined(CHECK_ORDER)
#define PROP ORDER_OK
#elif defined(CHECK_STALE)
#define PROP STALE_OK
#elif defined(CHECK_MUTEX)
#define PROP MUTEX_OK
#else
#error "define one of CHECK_UNIQUE CHECK_ORDER CHECK_STALE CHECK_MUTEX"
#endif

/* The monitor stays blocked (adding no states) until the property is false
   in some reachable state, then fails: the invariant is checked in every
   reachable state. */
active proctype Monitor()
{
end:  atomic { !(PROP) -> assert(PROP) }
}

/* ------------------------------ node steps ------------------------------ */

/* node n executes c's acquire: if K empty then K := v; F++; reply F else 0.
   SEEN = 1: the client sees the reply (only possible while it collects);
   SEEN = 0: the reply is lost, late, or the client already decided. */
#ifdef GHOST_PREC
#define GHOST_GRANT(c,n) \
    x = 0; \
    do \
    :: x < NC -> \
       if \
       :: x != c && B(granted[x], n) -> gb[x*NC + c] = gb[x*NC + c] | (1 << n) \
       :: else \
       fi; x++ \
    :: else -> break \
    od; \
    granted[c] = granted[c] | (1 << n);
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
       K[n] = c + 1; F[n] = F[n] + 1;
       GHOST_GRANT(c, n)
       if
       :: SEEN -> seen[c*NN + n] = F[n];
          printf("EV: node %d grants c%d: F=%d (reply seen)\n", n, c, F[n])
       :: else ->
          printf("EV: node %d grants c%d: F=%d (reply not seen)\n", n, c, F[n])
       fi
    :: else -> printf("EV: node %d refuses c%d (K held by c%d)\n", n, c, K[n] - 1)
    fi
  }
}

/* node n executes c's commit with token T = tok[c]:
   if K != v reply 0; if F > T reply -1; if F < T then F := T; reply 1 */
#ifdef GHOST_PREC
#define GHOST_COMMIT(c,n) committed[c] = committed[c] | (1 << n);
#else
#define GHOST_COMMIT(c,n)
#endif

inline deliverCom(c, n, SEEN)
{
  d_step {
    B(pendCom[c], n) && (SEEN == 0 || phase[c] == COM) ->
    pendCom[c] = pendCom[c] ^ (1 << n);
    if
    :: K[n] != c + 1 -> printf("EV: node %d commit c%d -> 0\n", n, c)
    :: K[n] == c + 1 && F[n] > tok[c] -> printf("EV: node %d commit c%d -> -1\n", n, c)
    :: K[n] == c + 1 && F[n] <= tok[c] ->
       F[n] = tok[c];
       GHOST_COMMIT(c, n)
       if :: SEEN -> comSeen[c] = comSeen[c] | (1 << n) :: else fi;
       printf("EV: node %d commit c%d -> 1, F=%d (seen=%d)\n", n, c, F[n], SEEN)
    fi
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
    K[n] = 0
  }
}

#ifdef RESTARTS_ON
/* node n restarts: K is lost; F per variant (J = floor jump) */
inline restart(n, J)
{
  d_step {
    restarts < MAXR ->
    restarts++;
    K[n] = 0;
#if defined(RESTART_PLAIN)
    F[n] = 0;
#elif defined(RESTART_FLOOR)
    F[n] = F[n] + J;
#endif
    printf("EV: node %d restarts, F=%d\n", n, F[n])
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
    printf("EV: c%d begins acquiring\n", c)
  }
}

/* 2.+3. decide (at any moment) from the replies seen so far */
#ifdef NAIVE
#define AFTER_GRANTS(c) \
    comSeen[c] = gm;          /* naive: every grant seen counts, no commit */
#define GHOST_EXACT(c,m) committed[c] = m;
#else
#define AFTER_GRANTS(c) \
    comSeen[c] = em;          /* nodes that replied exactly T are committed */ \
    pendCom[c] = ALLN ^ em;   /* commit the others */
#define GHOST_EXACT(c,m) committed[c] = committed[c] | em;
#endif
#ifndef GHOST_PREC
#undef GHOST_EXACT
#define GHOST_EXACT(c,m)
#endif

inline decide(c)
{
  d_step {
    phase[c] == ACQ ->
    h_cnt = 0; t = 0; gm = 0; em = 0; y = 0;
    do
    :: y < NN ->
       if
       :: seen[c*NN + y] > 0 ->
          h_cnt++; gm = gm | (1 << y);
          if :: seen[c*NN + y] > t -> t = seen[c*NN + y] :: else fi
       :: else
       fi; y++
    :: else -> break
    od;
    y = 0;
    do
    :: y < NN ->
       if :: B(gm, y) && seen[c*NN + y] == t -> em = em | (1 << y) :: else fi;
       seen[c*NN + y] = 0; y++
    :: else -> break
    od;
    if
    :: h_cnt < MAJ ->
       phase[c] = DONE; release(c);
       printf("EV: c%d saw %d grant(s): fails, releases\n", c, h_cnt)
    :: else ->
       tok[c] = t; phase[c] = COM;
       AFTER_GRANTS(c)
       GHOST_EXACT(c, gm)
       printf("EV: c%d saw %d grants, T=%d\n", c, h_cnt, t)
    fi
  }
}

/* 4. usable iff a majority is committed and the timing check passes */
inline getLease(c)
{
  d_step {
    phase[c] == COM && POP(comSeen[c]) >= MAJ && !B(expired, c) ->
    phase[c] = USE; usable = usable | (1 << c); comSeen[c] = 0;
    printf("EV: c%d lease USABLE with token %d\n", c, tok[c])
  }
}

/* 4'. ... or it gives up: too few commits seen, or timing check fails */
inline giveUp(c)
{
  d_step {
    phase[c] == COM ->
    phase[c] = DONE; comSeen[c] = 0; release(c);
    printf("EV: c%d gets no usable lease, releases\n", c)
  }
}

/* 5. the holder stops using the lease and releases */
inline endLease(c)
{
  d_step {
    phase[c] == USE ->
    phase[c] = DONE; release(c);
    printf("EV: c%d ends its lease, releases\n", c)
  }
}

#ifdef CHECK_STALE
/* storage: accept iff t > hw or (t == hw and owner == v) */
inline write(c)
{
  d_step {
    phase[c] == USE ->
    if
    :: tok[c] > hw || (tok[c] == hw && owner == c + 1) ->
       y = 0;
       do
       :: y < NC ->
          if :: y != c && B(wrote, y) && PREC(c, y) -> staleBad = 1 :: else fi; y++
       :: else -> break
       od;
       hw = tok[c]; owner = c + 1; wrote = wrote | (1 << c);
       printf("EV: storage accepts write of c%d, token %d\n", c, tok[c])
    :: else ->
       printf("EV: storage rejects write of c%d, token %d (hw=%d)\n", c, tok[c], hw)
    fi
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
  :: deliverAcq(c,0,0) :: deliverAcq(c,1,0) :: deliverAcq(c,2,0)
#ifdef NAIVE
#define COMMITS(c)
#else
#define COMMITS(c) \
  :: deliverCom(c,0,1) :: deliverCom(c,1,1) :: deliverCom(c,2,1) \
  :: deliverCom(c,0,0) :: deliverCom(c,1,0) :: deliverCom(c,2,0)
#endif

/* F[n] := nondeterministic value in 0..INITMAX */
#if INITMAX == 0
#define INITF(n) F[n] = 0
#elif INITMAX == 1
#define INITF(n) if :: F[n] = 0 :: F[n] = 1 fi
#elif INITMAX == 2
#define INITF(n) if :: F[n] = 0 :: F[n] = 1 :: F[n] = 2 fi
#else
#define INITF(n) if :: F[n] = 0 :: F[n] = 1 :: F[n] = 2 :: F[n] = 3 fi
#endif

active proctype Sys()
{
  atomic {
    INITF(0); INITF(1); INITF(2);
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
#ifdef RESTARTS_ON
  :: restart(0,1) :: restart(1,1) :: restart(2,1)
#ifdef RESTART_FLOOR
  :: restart(0,2) :: restart(1,2) :: restart(2,2)
#endif
#endif
  od
}
