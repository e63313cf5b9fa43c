/*
 * several.pml -- Promela model of locks of several resources at once
 * (Redlock.acquireAll; docs/FENCING.md, "Locks of several resources"), over
 * the same quorum and fencing-token protocol as fencing.pml (N = 3
 * independent Redis nodes).
 *
 * Two resources r0, r1. Per node and resource: a lock key K and a fencing
 * counter F. Every attempt c claims a set of resources res[c] (bit r: r is
 * claimed): attempt 0 claims both (a lock of several), every other attempt
 * chooses one resource or both when it begins (with 2 attempts, r0 or both:
 * the resources are symmetric). On a node, one atomic script
 * (acquire-all.lua; acquire-fenced.lua for one resource) grants all of the
 * claimed locks or none:
 *   if every claimed K is empty then
 *     every claimed K := v; t := 1 + max of the claimed F; every claimed F := t
 *     reply t
 *   else reply 0
 * (for one resource that is acquire-fenced's INCR). The client takes
 * T := the largest grant seen, counts the nodes that replied exactly T as
 * committed, and commits T to the others (commit-all.lua):
 *   if some claimed K != v then reply 0
 *   elif some claimed F > T then reply -1
 *   else every claimed F := max(F, T); reply 1
 * The lease is usable with a majority committed (and the timing check).
 * Keys of one lease on one node are set, extended, expired and deleted
 * together (one script, one TTL).
 *
 * Compile-time switches (spin -a -D...):
 *   -DNC=2 | -DNC=3     number of lock attempts (default 2)
 *   -DINITMAX=k         every counter starts at a nondeterministic value in
 *                       0..k, k <= 2                         default 0
 *   -DTIMING_FAULTS     any key may expire at any time (clock jumps on nodes,
 *                       paused clients) without the client noticing.
 *                       Without it a key cannot expire while its holder uses
 *                       the lease; if it expires while the holder is still
 *                       acquiring or committing, the timing check fails.
 *   -DRESTART_PLAIN     a node may restart at once, losing its keys and
 *                       counters (F := 0)
 *   -DRESTART_DURABLE   ... losing its keys, keeping its counters
 *                       (appendfsync always)
 *   -DRESTART_FLOOR     ... losing its keys, its counters coming back at the
 *                       clock floor: one value above every counter the node
 *                       ever had (max F + 1)                  bounded: 1
 *   -DRESTART_DELAYED   a node may restart losing keys and counters, but only
 *                       after staying down longer than every TTL (SPEC R9):
 *                       like an expiry of all its keys, which without
 *                       timing faults cannot happen to a lease in use
 *   -DKEYS_APART        one lock key of a lease may vanish alone (eviction,
 *                       a manual DEL): what noeviction rules out
 *   -DCOUNTERS_APART    the wrong acquire: each claimed counter incremented
 *                       on its own and the largest of them returned (instead
 *                       of every counter set to one t above all of them)
 *   one or more of -DCHECK_UNIQUE -DCHECK_ORDER -DCHECK_STALE -DCHECK_MUTEX
 *                       -DCHECK_ATOMIC -DCHECK_SANITY (their conjunction)
 *
 * Properties, for two attempts x, y whose resource sets share a resource:
 *   UNIQUE  two usable leases never have the same token
 *   ORDER   x precedes y => T(x) < T(y) (precedes: x was usable before y
 *           began acquiring, or on a node where both were committed x's
 *           grant came first)
 *   STALE   the storage of a resource never accepts x's write after y's
 *           when x precedes y (each resource has its own storage, which
 *           keeps the highest token it accepted)
 *   MUTEX   never two leases in use at once
 *   ATOMIC  (all-or-nothing) on every node, a lock of several resources
 *           holds every one of its keys or none
 *   SANITY  expected to FAIL: no run lets a lock of several resources and
 *           an overlapping lock both be usable and write (non-vacuity)
 *
 * Style as fencing.pml: one process whose loop holds guarded d_steps, every
 * client and node step indivisible, replies seen or lost (late), release
 * immediate (a lost release is subsumed by expiry), the properties asserted
 * after every step.
 */

#ifndef NC
#define NC 2
#endif
#ifndef INITMAX
#define INITMAX 0
#endif

#define NN   3           /* nodes A=0, B=1, C=2 */
#define MAJ  2
#define ALLN 7
#define NR   2           /* resources r0, r1 */
#define BOTH 3           /* the resource set {r0, r1} */

#define IDLE 0
#define ACQ  1
#define COM  2
#define USE  3
#define DONE 4

#if defined(RESTART_PLAIN) || defined(RESTART_DURABLE) || defined(RESTART_FLOOR) || defined(RESTART_DELAYED)
#define RESTARTS_ON 1
#endif

byte K[NN*NR];           /* K[n*NR+r]: 0 = empty, else value c+1 */
byte F[NN*NR];           /* F[n*NR+r]: fencing counter */
byte res[NC];            /* resources claimed by attempt c (bit r) */

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
byte usable;
byte granted[NC];
byte committed[NC];
byte gb[NC*NC];          /* gb[x*NC+y] bit n: x's grant on n came before y's */
short precB;             /* bit x*NC+y: x was usable before y began */
byte hw[NR];             /* storage of resource r: highest accepted token */
byte owner[NR];          /* ... and the value that holds it */
byte wrote;              /* bit c*NR+r: the storage of r accepted a write from c */
bit  staleBad;

byte x, y, h_cnt, t, gm, em, i1, i2, r1;

#define B(m,i)    (((m) >> (i)) & 1)
#define POP(m)    (B(m,0) + B(m,1) + B(m,2))
#define USABLE(i) B(usable, i)
#define SHARE(a,b) ((res[a] & res[b]) != 0)
#define PREC(a,b) (B(precB, (a)*NC+(b)) || \
                   ((gb[(a)*NC+(b)] & committed[a] & committed[b]) != 0))
#define KEY(n,r)  K[(n)*NR+(r)]
#define CNT(n,r)  F[(n)*NR+(r)]
/* node n has every key of resource set m empty */
#define FREE(n,m) ((!B(m,0) || KEY(n,0) == 0) && (!B(m,1) || KEY(n,1) == 0))
/* node n holds value c+1 under every key of c's resource set */
#define HOLDS(n,c) ((!B(res[c],0) || KEY(n,0) == (c)+1) && (!B(res[c],1) || KEY(n,1) == (c)+1))
/* node n holds value c+1 under some key */
#define HOLDSANY(n,c) (KEY(n,0) == (c)+1 || KEY(n,1) == (c)+1)

/* ----------------------------- properties ----------------------------- */
#define PU(a,b) (!(USABLE(a) && USABLE(b) && SHARE(a,b) && tok[a] == tok[b]))
#define PO(a,b) (!(USABLE(a) && USABLE(b) && SHARE(a,b) && PREC(a,b) && tok[a] >= tok[b]))
#define INUSE(a) (phase[a] == USE)
#define PM(a,b) (!(INUSE(a) && INUSE(b) && SHARE(a,b)))
/* attempt c of several resources holds both keys on node n or neither */
#define PA(c,n) (res[c] != BOTH || (KEY(n,0) == (c)+1) == (KEY(n,1) == (c)+1))
#define PAC(c) (PA(c,0) && PA(c,1) && PA(c,2))
#if NC == 2
#define UNIQUE_OK (PU(0,1))
#define ORDER_OK  (PO(0,1) && PO(1,0))
#define MUTEX_OK  (PM(0,1))
#define ATOMIC_OK (PAC(0) && PAC(1))
#elif NC == 3
#define UNIQUE_OK (PU(0,1) && PU(0,2) && PU(1,2))
#define ORDER_OK  (PO(0,1) && PO(1,0) && PO(0,2) && PO(2,0) && PO(1,2) && PO(2,1))
#define MUTEX_OK  (PM(0,1) && PM(0,2) && PM(1,2))
#define ATOMIC_OK (PAC(0) && PAC(1) && PAC(2))
#else
#error "NC must be 2 or 3"
#endif
#define STALE_OK  (!staleBad)
#define WROTE(c)  ((wrote >> ((c)*NR)) & BOTH)
#define SANITY_OK (!(USABLE(0) && USABLE(1) && WROTE(0) != 0 && WROTE(1) != 0 && SHARE(0,1)))

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
#ifdef CHECK_ATOMIC
#define P5 ATOMIC_OK
#else
#define P5 true
#endif
#ifdef CHECK_SANITY
#define P6 SANITY_OK
#else
#define P6 true
#endif
#if !defined(CHECK_UNIQUE) && !defined(CHECK_ORDER) && !defined(CHECK_STALE) && !defined(CHECK_MUTEX) && !defined(CHECK_ATOMIC) && !defined(CHECK_SANITY)
#error "define at least one of CHECK_UNIQUE CHECK_ORDER CHECK_STALE CHECK_MUTEX CHECK_ATOMIC CHECK_SANITY"
#endif
#define CHECK_PROPS assert(P1); assert(P2); assert(P3); assert(P4); assert(P5); assert(P6)

/* an attempt that ended without a usable lease and has no commit in flight
   no longer matters: canonical 0 for its token and ghost history */
#define DEAD(c) (phase[c] == DONE && !USABLE(c))
inline tidy(c)
{
  if
  :: phase[c] == DONE && pendCom[c] == 0 && !USABLE(c) ->
     tok[c] = 0; granted[c] = 0; committed[c] = 0;
     i1 = 0;
     do
     :: i1 < NC ->
        gb[i1*NC + c] = 0; gb[c*NC + i1] = 0;
        precB = precB & ~((1 << (i1*NC + c)) | (1 << (c*NC + i1))); i1++
     :: else -> break
     od
  :: else
  fi
}

/* a commit of c to n can only be answered 0 once c's acquire at n was
   delivered and n no longer holds c: drop it (state-space canonicalisation) */
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
  x = 0; y = 0; h_cnt = 0; t = 0; gm = 0; em = 0; i1 = 0; i2 = 0; r1 = 0;
  CHECK_PROPS
}

/* ------------------------------ node steps ------------------------------ */

/* c's grant on n: after every other attempt granted there before it that
   shares a resource with it */
#define GHOST_GRANT(c,n) \
    if \
    :: DEAD(c) -> skip \
    :: else -> \
    x = 0; \
    do \
    :: x < NC -> \
       if \
       :: x != c && B(granted[x], n) && SHARE(x, c) -> gb[x*NC + c] = gb[x*NC + c] | (1 << n) \
       :: else \
       fi; x++ \
    :: else -> break \
    od; \
    granted[c] = granted[c] | (1 << n) \
    fi;

/* node n runs c's acquire (acquire-all / acquire-fenced) */
inline deliverAcq(c, n, SEEN)
{
  d_step {
    B(pendAcq[c], n) && (SEEN == 0 || phase[c] == ACQ) ->
    pendAcq[c] = pendAcq[c] ^ (1 << n);
    if
    :: FREE(n, res[c]) ->
       t = 0;
       r1 = 0;
       do
       :: r1 < NR ->
          if
          :: B(res[c], r1) ->
             KEY(n, r1) = c + 1;
             if :: CNT(n, r1) > t -> t = CNT(n, r1) :: else fi
          :: else
          fi; r1++
       :: else -> break
       od;
#ifdef COUNTERS_APART
       /* the wrong script: each counter incremented on its own, the reply the largest of them */
       t = 0;
       if :: B(res[c], 0) -> CNT(n, 0) = CNT(n, 0) + 1; t = CNT(n, 0) :: else fi;
       if :: B(res[c], 1) -> CNT(n, 1) = CNT(n, 1) + 1; if :: CNT(n, 1) > t -> t = CNT(n, 1) :: else fi :: else fi;
#else
       t = t + 1;
       if :: B(res[c], 0) -> CNT(n, 0) = t :: else fi;
       if :: B(res[c], 1) -> CNT(n, 1) = t :: else fi;
#endif
       GHOST_GRANT(c, n)
       if
       :: SEEN ->
          gSeen[c] = gSeen[c] | (1 << n);
          if
          :: t > tMax[c] -> tMax[c] = t; eSeen[c] = (1 << n)
          :: t == tMax[c] -> eSeen[c] = eSeen[c] | (1 << n)
          :: else
          fi;
          printf("EV: node %d grants c%d (res %d): %d (seen)\n", n, c, res[c], t)
       :: else ->
          printf("EV: node %d grants c%d (res %d): %d (not seen)\n", n, c, res[c], t)
       fi
    :: else ->
       printf("EV: node %d refuses c%d (res %d)\n", n, c, res[c]);
       pendCom[c] = pendCom[c] & (ALLN ^ (1 << n)); tidy(c)
    fi;
    stepEnd()
  }
}

/* node n runs c's commit of T = tok[c] (commit-all / commit-fence) */
inline deliverCom(c, n, SEEN)
{
  d_step {
    B(pendCom[c], n) && (SEEN == 0 || phase[c] == COM) ->
    pendCom[c] = pendCom[c] ^ (1 << n);
    if
    :: !HOLDS(n, c) -> printf("EV: node %d commit c%d -> 0\n", n, c)
    :: HOLDS(n, c) && ((B(res[c],0) && CNT(n,0) > tok[c]) || (B(res[c],1) && CNT(n,1) > tok[c])) ->
       printf("EV: node %d commit c%d -> -1\n", n, c)
    :: else ->
       if :: B(res[c],0) && CNT(n,0) < tok[c] -> CNT(n,0) = tok[c] :: else fi;
       if :: B(res[c],1) && CNT(n,1) < tok[c] -> CNT(n,1) = tok[c] :: else fi;
       if :: SEEN -> comSeen[c] = comSeen[c] | (1 << n) :: else fi;
       printf("EV: node %d commit c%d -> 1 (seen=%d)\n", n, c, SEEN)
    fi;
    tidy(c);
    stepEnd()
  }
}

/* the keys of value v on node n go (expiry: they share one TTL) */
#define DROPKEYS(n, v) \
    if :: KEY(n,0) == (v) -> KEY(n,0) = 0 :: else fi; \
    if :: KEY(n,1) == (v) -> KEY(n,1) = 0 :: else fi;

/* the key of resource r on node n expires, with the other keys of its lease */
inline expire(n, r)
{
  d_step {
#ifdef TIMING_FAULTS
    KEY(n, r) != 0 ->
#else
    KEY(n, r) != 0 && phase[KEY(n, r) - 1] != USE ->
    if
    :: phase[KEY(n, r) - 1] == ACQ || phase[KEY(n, r) - 1] == COM ->
       expired = expired | (1 << (KEY(n, r) - 1))
    :: else
    fi;
#endif
    x = KEY(n, r) - 1;
    printf("EV: keys of c%d on node %d expire\n", x, n);
    DROPKEYS(n, x + 1)
    normC(x);
    stepEnd()
  }
}

#ifdef KEYS_APART
/* one key alone vanishes (eviction, DEL): what noeviction rules out */
inline evict(n, r)
{
  d_step {
    KEY(n, r) != 0 ->
    x = KEY(n, r) - 1;
    printf("EV: the key of r%d (c%d) on node %d is evicted alone\n", r, x, n);
    KEY(n, r) = 0;
    normC(x);
    stepEnd()
  }
}
#define EVICTS :: evict(0,0) :: evict(0,1) :: evict(1,0) :: evict(1,1) :: evict(2,0) :: evict(2,1)
#else
#define EVICTS
#endif

#ifdef RESTARTS_ON
inline restart(n)
{
  d_step {
#if defined(RESTART_FLOOR)
    restarts < 1 -> restarts++;
    /* the clock floor: one value above every counter the node ever had */
    t = CNT(n,0); if :: CNT(n,1) > t -> t = CNT(n,1) :: else fi; t = t + 1;
    CNT(n,0) = t; CNT(n,1) = t;
#elif defined(RESTART_DURABLE)
    (KEY(n,0) != 0 || KEY(n,1) != 0) ->
#elif defined(RESTART_DELAYED)
    /* down longer than every TTL: its keys would have expired meanwhile */
#ifdef TIMING_FAULTS
    (KEY(n,0) != 0 || KEY(n,1) != 0 || CNT(n,0) != 0 || CNT(n,1) != 0) ->
#else
    (KEY(n,0) != 0 || KEY(n,1) != 0 || CNT(n,0) != 0 || CNT(n,1) != 0) &&
    (KEY(n,0) == 0 || phase[KEY(n,0) - 1] != USE) &&
    (KEY(n,1) == 0 || phase[KEY(n,1) - 1] != USE) ->
    if
    :: KEY(n,0) != 0 && (phase[KEY(n,0) - 1] == ACQ || phase[KEY(n,0) - 1] == COM) ->
       expired = expired | (1 << (KEY(n,0) - 1))
    :: else
    fi;
    if
    :: KEY(n,1) != 0 && (phase[KEY(n,1) - 1] == ACQ || phase[KEY(n,1) - 1] == COM) ->
       expired = expired | (1 << (KEY(n,1) - 1))
    :: else
    fi;
#endif
    CNT(n,0) = 0; CNT(n,1) = 0;
#else
    (KEY(n,0) != 0 || KEY(n,1) != 0 || CNT(n,0) != 0 || CNT(n,1) != 0) ->
    CNT(n,0) = 0; CNT(n,1) = 0;
#endif
    printf("EV: node %d restarts, F=%d,%d\n", n, CNT(n,0), CNT(n,1));
    x = KEY(n,0); y = KEY(n,1);
    KEY(n,0) = 0; KEY(n,1) = 0;
    /* (inline arguments are substituted as text: pass plain variables) */
    if :: x != 0 -> x = x - 1; normC(x) :: else fi;
    if :: y != 0 -> y = y - 1; normC(y) :: else fi;
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
  DROPKEYS(0, c + 1)
  DROPKEYS(1, c + 1)
  DROPKEYS(2, c + 1)
}

/* 1. begin: choose the resources (attempt 0: both), note the leases already
   usable, send the acquire everywhere */
inline begin(c, R)
{
  d_step {
    /* attempt 0 claims both; with 2 attempts the resources are symmetric, so
       attempt 1 claims r0 or both (r1 alone is r0 alone with the names
       swapped) */
    phase[c] == IDLE && (c != 0 || R == BOTH) && (NC > 2 || R != 2) ->
    res[c] = R;
    y = 0;
    do
    :: y < NC ->
       if :: USABLE(y) -> precB = precB | (1 << (y*NC + c)) :: else fi; y++
    :: else -> break
    od;
    phase[c] = ACQ; pendAcq[c] = ALLN;
    printf("EV: c%d begins acquiring res %d\n", c, R);
    stepEnd()
  }
}

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
       comSeen[c] = em; pendCom[c] = ALLN ^ em;
       printf("EV: c%d saw %d grants, T=%d\n", c, h_cnt, t)
    fi;
    normC(c);
    stepEnd()
  }
}

inline getLease(c)
{
  d_step {
    phase[c] == COM && POP(comSeen[c]) >= MAJ && !B(expired, c) ->
    phase[c] = USE; usable = usable | (1 << c);
    committed[c] = comSeen[c]; comSeen[c] = 0;
    printf("EV: c%d lease USABLE with token %d\n", c, tok[c]);
    stepEnd()
  }
}

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

inline endLease(c)
{
  d_step {
    phase[c] == USE ->
    printf("EV: c%d ends its lease, releases\n", c);
    phase[c] = DONE; release(c); normC(c);
    stepEnd()
  }
}

/* c writes to the storage of resource r (one it holds): accepted iff its
   token is above the storage's highest, or equal and from the same lease */
inline write(c, r)
{
  d_step {
    phase[c] == USE && B(res[c], r) ->
    if
    :: tok[c] > hw[r] || (tok[c] == hw[r] && owner[r] == c + 1) ->
       y = 0;
       do
       :: y < NC ->
          if :: y != c && B(wrote, y*NR + r) && PREC(c, y) -> staleBad = 1 :: else fi; y++
       :: else -> break
       od;
       hw[r] = tok[c]; owner[r] = c + 1; wrote = wrote | (1 << (c*NR + r));
       printf("EV: storage r%d accepts c%d, token %d\n", r, c, tok[c])
    :: else ->
       printf("EV: storage r%d rejects c%d, token %d (hw=%d)\n", r, c, tok[c], hw[r])
    fi;
    stepEnd()
  }
}

/* ------------------------------- system ------------------------------- */

#define CLIENT(c) \
  :: begin(c, 1) :: begin(c, 2) :: begin(c, BOTH) \
  :: decide(c) :: getLease(c) :: giveUp(c) :: endLease(c) :: write(c, 0) :: write(c, 1) \
  :: deliverAcq(c,0,1) :: deliverAcq(c,1,1) :: deliverAcq(c,2,1) \
  :: deliverAcq(c,0,0) :: deliverAcq(c,1,0) :: deliverAcq(c,2,0) \
  :: deliverCom(c,0,1) :: deliverCom(c,1,1) :: deliverCom(c,2,1) \
  :: deliverCom(c,0,0) :: deliverCom(c,1,0) :: deliverCom(c,2,0)

#define INITF(i) \
    if \
    :: INITMAX >= 2 -> F[i] = 2 \
    :: INITMAX >= 1 -> F[i] = 1 \
    :: F[i] = 0 \
    fi

active proctype Sys()
{
  atomic {
    INITF(0); INITF(1); INITF(2); INITF(3); INITF(4); INITF(5);
    printf("EV: initial counters A=%d,%d B=%d,%d C=%d,%d\n", F[0], F[1], F[2], F[3], F[4], F[5])
  };
end:
  do
  CLIENT(0)
  CLIENT(1)
#if NC > 2
  CLIENT(2)
#endif
  :: expire(0,0) :: expire(0,1) :: expire(1,0) :: expire(1,1) :: expire(2,0) :: expire(2,1)
  EVICTS
  RESTARTS
  od
}
