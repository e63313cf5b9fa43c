/*
 * fencing.pml -- Promela model of the distributed-lock fencing-token protocol
 * (N = 3 independent Redis nodes, per node a lock key K and a counter F).
 *
 * Compile-time switches (pass to `spin -a -D...`):
 *   -DNC=2 | -DNC=3     number of lock attempts (each attempt = one client
 *                       process with a fresh unique value v = c+1). default 2
 *   -DINITMAX=k         each node's counter F starts at a nondeterministic
 *                       value in 0..k (abstracts earlier history: failed
 *                       attempts that bumped some counters).   default 2
 *   -DNAIVE             no commit round: T := max of the grants seen,
 *                       usable iff a majority of grants was seen.
 *   -DTIMING_FAULTS     any key may expire at any time (clock jumps on nodes,
 *                       paused clients); the client's timing check does NOT
 *                       notice.  Without it ("no timing faults") a key may
 *                       expire only while its holder is not using the lease;
 *                       if it expires while the holder is still acquiring or
 *                       committing, the holder's timing check fails.
 *   -DRESTART_PLAIN     a node may restart losing K and F (F := 0)
 *   -DRESTART_DURABLE   a node may restart losing K, keeping F
 *   -DRESTART_FLOOR     a node may restart losing K, F := F + j, j in {1,2}
 *                       (clock floor: strictly above anything it ever had;
 *                       F never decreases in this model so "anything it
 *                       ever had" = current F)
 *   -DMAXR=r            bound on the number of restarts            default 1
 *   exactly one of -DCHECK_UNIQUE -DCHECK_ORDER -DCHECK_STALE -DCHECK_MUTEX
 *
 * Abstractions (see README.md):
 *  - Every node operation (acquire, commit, release, expiry, restart) is one
 *    atomic step; steps of different clients/nodes interleave arbitrarily,
 *    which models client pauses and delayed messages.  A message may be
 *    delivered after the client decided (late) or never.
 *  - A reply is either seen by the client (recorded while it is still
 *    collecting) or not (lost, or arrived after the decision).
 *  - Release is immediate and atomic (`if K == v then K := empty`); a delayed
 *    or lost release is subsumed by expiry, which may always remove the key
 *    of an attempt that has ended.
 *  - The storage's read path is identical to its write path, so only writes
 *    are modelled.  A usable holder may write any number of times at any
 *    later moment.
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
#define IDLE 0
#define ACQ  1           /* acquire messages sent, collecting replies */
#define COM  2           /* token chosen, collecting commit replies */
#define USE  3           /* lease usable: may write with token tok[c] */
#define DONE 4           /* attempt ended (failed, or lease given up) */

byte K[NN];              /* lock key: 0 = empty, else value c+1 of attempt c */
byte F[NN];              /* fencing counter, never expires */

byte phase[NC];
byte pendAcq[NC];        /* acquire messages not yet delivered (node bitmask) */
byte pendCom[NC];        /* commit messages not yet delivered (node bitmask) */
byte seen[NC*NN];        /* acquire reply the client saw (0 = none/denied/lost) */
byte comSeen[NC];        /* nodes the client counts as committed */
byte tok[NC];            /* token T chosen by the attempt */
byte expired;            /* bit c: an honest clock expired a key of c before c decided */
byte restarts;

/* storage (the protected resource) */
byte hw;                 /* highest accepted token */
byte owner;              /* value that holds hw */

/* ---- ghost state (history), used only by the properties ---- */
byte usable;             /* bit c: attempt c obtained a usable lease */
byte granted[NC];        /* nodes where c's acquire was granted */
byte committed[NC];      /* nodes where c's tenure was committed (node view) */
byte gb[NC*NC];          /* gb[x*NC+y] bit n: x's tenure on n came before y's */
short precB;             /* bit x*NC+y: x was usable before y began acquiring */
byte wrote;              /* bit c: storage accepted a write from c */
bit  staleBad;           /* storage accepted a write from x after one from y,
                            although x precedes y */

#define B(m,i)   (((m) >> (i)) & 1)
#define POP(m)   (B(m,0) + B(m,1) + B(m,2))
#define USABLE(x) B(usable, x)
/* x precedes y: x usable before y began, or on some node where both were
   committed, x's tenure came first */
#define PREC(x,y) (B(precB, (x)*NC+(y)) || \
                   ((gb[(x)*NC+(y)] & committed[x] & committed[y]) != 0))

/* ----------------------------- properties ----------------------------- */
#define PU(x,y) (!(USABLE(x) && USABLE(y) && tok[x] == tok[y]))
#define PO(x,y) (!(USABLE(x) && USABLE(y) && PREC(x,y) && tok[x] >= tok[y]))
#define INUSE(x) (phase[x] == USE)
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

/* The monitor waits (without adding states) until the property is false in
   some reachable state, then fails: checks the invariant in every state. */
active proctype Monitor()
{
end:  atomic { !(PROP) -> assert(PROP) }
}

/* ------------------------------ node steps ------------------------------ */

/* node n executes c's acquire: if K empty then K := v; F++; reply F else 0 */
inline deliverAcq(c, n)
{
  atomic {
    B(pendAcq[c], n) ->
    pendAcq[c] = pendAcq[c] ^ (1 << n);
    if
    :: K[n] == 0 ->
       K[n] = c + 1; F[n] = F[n] + 1;
       x = 0;
       do
       :: x < NC ->
          if
          :: x != c && B(granted[x], n) -> gb[x*NC + c] = gb[x*NC + c] | (1 << n)
          :: else
          fi; x++
       :: else -> break
       od; x = 0;
       granted[c] = granted[c] | (1 << n);
       printf("EV: node %d grants c%d: F=%d\n", n, c, F[n]);
       if
       :: phase[c] == ACQ ->
          if
          :: seen[c*NN + n] = F[n]                  /* reply seen */
          :: printf("EV:   (reply lost / late)\n")  /* reply lost or late */
          fi
       :: else -> printf("EV:   (c%d already decided)\n", c)
       fi
    :: else -> printf("EV: node %d refuses c%d (K held)\n", n, c)
    fi
  }
}

/* node n executes c's commit with token T = tok[c]:
   if K != v reply 0; if F > T reply -1; if F < T then F := T; reply 1 */
inline deliverCom(c, n)
{
  atomic {
    B(pendCom[c], n) ->
    pendCom[c] = pendCom[c] ^ (1 << n);
    if
    :: K[n] != c + 1 -> printf("EV: node %d commit c%d -> 0\n", n, c)
    :: K[n] == c + 1 && F[n] > tok[c] -> printf("EV: node %d commit c%d -> -1\n", n, c)
    :: K[n] == c + 1 && F[n] <= tok[c] ->
       F[n] = tok[c];
       committed[c] = committed[c] | (1 << n);
       printf("EV: node %d commit c%d -> 1 (F=%d)\n", n, c, F[n]);
       if
       :: phase[c] == COM ->
          if
          :: comSeen[c] = comSeen[c] | (1 << n)
          :: skip                                   /* reply lost or late */
          fi
       :: else
       fi
    fi
  }
}

/* lock key on node n expires */
inline expire(n)
{
  atomic {
#ifdef TIMING_FAULTS
    K[n] != 0 ->
#else
    /* honest clocks: a key cannot expire while its holder uses the lease;
       if it expires before the holder decided, the holder's timing check
       (elapsed < TTL) fails */
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

#if defined(RESTART_PLAIN) || defined(RESTART_DURABLE) || defined(RESTART_FLOOR)
#define RESTARTS 1
inline restart(n)
{
  atomic {
    restarts < MAXR ->
    restarts++;
    K[n] = 0;
#if defined(RESTART_PLAIN)
    F[n] = 0;
#elif defined(RESTART_FLOOR)
    if
    :: F[n] = F[n] + 1
    :: F[n] = F[n] + 2
    fi;
#endif
    printf("EV: node %d restarts, F=%d\n", n, F[n])
  }
}
#endif

#define ACQS(c) :: deliverAcq(c,0) :: deliverAcq(c,1) :: deliverAcq(c,2)
#define COMS(c) :: deliverCom(c,0) :: deliverCom(c,1) :: deliverCom(c,2)

/* network + environment: delivers messages in any order, expires keys,
   restarts nodes */
active proctype Env()
{
  byte x;
end:
  do
  ACQS(0)
  ACQS(1)
#if NC > 2
  ACQS(2)
#endif
#ifndef NAIVE
  COMS(0)
  COMS(1)
#if NC > 2
  COMS(2)
#endif
#endif
  :: expire(0) :: expire(1) :: expire(2)
#ifdef RESTARTS
  :: restart(0) :: restart(1) :: restart(2)
#endif
  od
}

/* ------------------------------- clients ------------------------------- */

inline release(c)
{
  if :: K[0] == c + 1 -> K[0] = 0 :: else fi;
  if :: K[1] == c + 1 -> K[1] = 0 :: else fi;
  if :: K[2] == c + 1 -> K[2] = 0 :: else fi
}

/* storage: accept iff t > hw or (t == hw and owner == v) */
inline write(c)
{
  if
  :: tok[c] > hw || (tok[c] == hw && owner == c + 1) ->
     y = 0;
     do
     :: y < NC ->
        if
        :: y != c && B(wrote, y) && PREC(c, y) -> staleBad = 1
        :: else
        fi; y++
     :: else -> break
     od; y = 0;
     hw = tok[c]; owner = c + 1; wrote = wrote | (1 << c);
     printf("EV: storage accepts write of c%d with token %d\n", c, tok[c])
  :: else ->
     printf("EV: storage rejects write of c%d with token %d (hw=%d)\n", c, tok[c], hw)
  fi
}

proctype Client(byte c)
{
  byte y, cnt, t, gm, em;

  /* 1. begin: record which leases are already usable; send acquires */
  atomic {
    y = 0;
    do
    :: y < NC ->
       if
       :: USABLE(y) -> precB = precB | (1 << (y*NC + c))
       :: else
       fi; y++
    :: else -> break
    od; y = 0;
    phase[c] = ACQ; pendAcq[c] = ALLN;
    printf("EV: c%d begins acquiring\n", c)
  };

  /* 2. decide, at any moment, from the replies seen so far */
  atomic {
    y = 0; cnt = 0; t = 0; gm = 0; em = 0;
    do
    :: y < NN ->
       if
       :: seen[c*NN + y] > 0 ->
          cnt++; gm = gm | (1 << y);
          if :: seen[c*NN + y] > t -> t = seen[c*NN + y] :: else fi
       :: else
       fi; y++
    :: else -> break
    od;
    y = 0;
    do
    :: y < NN ->
       if :: gm & (1 << y) && seen[c*NN + y] == t -> em = em | (1 << y) :: else fi;
       seen[c*NN + y] = 0; y++
    :: else -> break
    od; y = 0;
    if
    :: cnt < MAJ ->
       printf("EV: c%d saw %d grant(s): fails\n", c, cnt);
       cnt = 0; t = 0; gm = 0; em = 0;
       goto fail
    :: else ->
       tok[c] = t;
#ifdef NAIVE
       /* naive: no commit round; every grant seen counts */
       committed[c] = gm; comSeen[c] = gm;
#else
       /* 3. nodes that replied exactly T are committed; commit the others */
       committed[c] = committed[c] | em; comSeen[c] = em;
       pendCom[c] = ALLN ^ em;
#endif
       phase[c] = COM;
       printf("EV: c%d saw %d grants, T=%d\n", c, cnt, t);
       cnt = 0; t = 0; gm = 0; em = 0
    fi
  };

  /* 4. usable iff majority committed and the timing check passes */
  atomic {
    if
    :: POP(comSeen[c]) >= MAJ && !B(expired, c) ->
       phase[c] = USE; usable = usable | (1 << c); comSeen[c] = 0;
       printf("EV: c%d lease USABLE with token %d\n", c, tok[c])
    :: true ->     /* too few commits, or the timing check fails */
       printf("EV: c%d does not get a usable lease\n", c);
       goto fail
    fi
  };

  /* holder: writes at any later moments, then gives the lease up */
  do
  :: atomic { write(c) }
  :: break
  od;
  atomic {
    phase[c] = DONE; release(c);
    printf("EV: c%d ends its lease and releases\n", c)
  };
  goto stop;

fail:
  atomic { phase[c] = DONE; comSeen[c] = 0; release(c) };
stop:
  skip
}

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

init
{
  atomic {
    INITF(0); INITF(1); INITF(2);
    printf("EV: initial counters A=%d B=%d C=%d\n", F[0], F[1], F[2]);
    run Client(0);
    run Client(1);
#if NC > 2
    run Client(2);
#endif
  }
}
