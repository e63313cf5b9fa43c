/*
 * readwrite.pml -- Promela model of read-write locks (Redlock.readWriteLock;
 * docs/FENCING.md, "Read-write locks") over the quorum and fencing-token
 * protocol of fencing.pml (N = 3 independent Redis nodes, one resource).
 *
 * Per node: the lock key K (0 = empty, c+1 = attempt c writes, MARK = read-
 * locked), the live readers R (bit c: attempt c is a reader there) and the
 * counter F, one for readers and writers. Every attempt is a writer or a
 * reader, chosen when it begins. On a node:
 *   writer acquire (acquire-fenced):  if K empty then K := v; F++; reply F
 *   reader acquire (acquire-read):    if K empty or MARK then R += c;
 *                                     K := MARK; F++; reply F
 * With -DQUEUE any acquire may also be refused while the lock is free (the
 * fair queue; for a reader, a writer waiting: writers first), so every queue
 * order is covered. Without it such a refusal is still covered: a message
 * that is never delivered leaves the node as the refusal does. The client takes T := the largest grant seen, counts the nodes
 * that replied exactly T as committed and commits T to the others
 * (commit-fence / commit-read): reply 0 unless it holds there (K == v; a
 * reader: c in R), -1 if F > T, else F := max(F, T) and reply 1. The lease is
 * usable with a majority committed (and the timing check). A reader's entry
 * expires, or is released, alone; the mark goes with the last reader (the
 * lock key lives as long as the longest reader).
 *
 * Compile-time switches (spin -a -D...):
 *   -DNC=2 | -DNC=3     number of lock attempts (default 2)
 *   -DINITMAX=k         the counters start at a nondeterministic value in
 *                       0..k, k <= 2 (F[A] >= F[B] >= F[C])   default 0
 *   -DTIMING_FAULTS     any key or reader entry may expire at any time
 *   -DQUEUE             a free lock may be refused (the fair queue, writers
 *                       first)
 *   -DFIRST_WRITES      attempt 0 writes. With 2 attempts no property speaks
 *                       of two readers, and attempts are symmetric, so this
 *                       loses nothing for UNIQUE, ORDER, STALE and MUTEX and
 *                       halves the search
 *   -DRESTART_PLAIN     a node may restart at once, losing keys, readers and
 *                       counter (F := 0)
 *   -DRESTART_DURABLE   ... keeping the counter
 *   -DRESTART_FLOOR     ... its counter at the clock floor F + 1 (once)
 *   -DRESTART_DELAYED   ... losing everything, but only after staying down
 *                       longer than every TTL (SPEC R9)
 *   -DNO_MARK           the wrong reader: it does not mark the lock key, so
 *                       a writer's SET NX succeeds beside readers
 *   -DOWN_COUNTER       the wrong reader: it draws its token from a counter
 *                       of its own (not the resource's), so nothing orders it
 *                       against writers
 *   one or more of -DCHECK_UNIQUE -DCHECK_ORDER -DCHECK_STALE -DCHECK_MUTEX
 *                       -DCHECK_SANITY
 *
 * Properties, of two attempts x, y at least one of which writes (readers
 * hold together, so nothing orders two readers: they may share a token, and
 * an older reader's read may follow a newer reader's):
 *   UNIQUE  two usable leases never share a token
 *   ORDER   x precedes y => T(x) < T(y): a writer's token is above every
 *           earlier lease's, readers' included, and a reader's above every
 *           earlier writer's
 *   STALE   the storage never accepts x's operation after y's when x
 *           precedes y (readers' reads are fenced like writes: a read raises
 *           the storage's mark)
 *   MUTEX   a writer in use is never beside another lease in use, reader or
 *           writer (readers together are allowed)
 *   SANITY  expected to FAIL: two readers are in use at once and both read
 */

#ifndef NC
#define NC 2
#endif
#ifndef INITMAX
#define INITMAX 0
#endif

#define NN   3
#define MAJ  2
#define ALLN 7
#define MARK 7           /* K: read-locked (no attempt value reaches 7) */

#define IDLE 0
#define ACQ  1
#define COM  2
#define USE  3
#define DONE 4

#if defined(RESTART_PLAIN) || defined(RESTART_DURABLE) || defined(RESTART_FLOOR) || defined(RESTART_DELAYED)
#define RESTARTS_ON 1
#endif

byte K[NN];
byte R[NN];              /* bit c: c is a live reader on node n */
byte F[NN];
#ifdef OWN_COUNTER
byte G[NN];              /* the wrong reader's own counter */
#endif
bit  reader[NC];         /* attempt c reads (else it writes) */

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
byte gb[NC*NC];
short precB;
byte hw;
byte owner;
byte wrote;
bit  staleBad;

byte x, y, h_cnt, t, gm, em, i1, i2;

#define B(m,i)    (((m) >> (i)) & 1)
#define POP(m)    (B(m,0) + B(m,1) + B(m,2))
#define USABLE(i) B(usable, i)
#define PREC(a,b) (B(precB, (a)*NC+(b)) || \
                   ((gb[(a)*NC+(b)] & committed[a] & committed[b]) != 0))
/* node n holds c: its key (a writer) or its reader entry (a reader) */
#define HOLDS(n,c) (reader[c] && B(R[n], c) || !reader[c] && K[n] == (c)+1)
/* a pair the exclusive properties speak of: at least one writer */
#define WPAIR(a,b) (!reader[a] || !reader[b])

/* ----------------------------- properties ----------------------------- */
#define PU(a,b) (!(USABLE(a) && USABLE(b) && WPAIR(a,b) && tok[a] == tok[b]))
#define PO(a,b) (!(USABLE(a) && USABLE(b) && WPAIR(a,b) && PREC(a,b) && tok[a] >= tok[b]))
#define INUSE(a) (phase[a] == USE)
#define PM(a,b) (!(INUSE(a) && INUSE(b) && WPAIR(a,b)))
#if NC == 2
#define UNIQUE_OK (PU(0,1))
#define ORDER_OK  (PO(0,1) && PO(1,0))
#define MUTEX_OK  (PM(0,1))
#define SANITY_OK (!(INUSE(0) && INUSE(1) && reader[0] && reader[1] && B(wrote,0) && B(wrote,1)))
#elif NC == 3
#define UNIQUE_OK (PU(0,1) && PU(0,2) && PU(1,2))
#define ORDER_OK  (PO(0,1) && PO(1,0) && PO(0,2) && PO(2,0) && PO(1,2) && PO(2,1))
#define MUTEX_OK  (PM(0,1) && PM(0,2) && PM(1,2))
#define SANITY_OK (!(INUSE(1) && INUSE(2) && reader[1] && reader[2] && B(wrote,1) && B(wrote,2)))
#else
#error "NC must be 2 or 3"
#endif
#define STALE_OK  (!staleBad)

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
#define CHECK_PROPS assert(P1); assert(P2); assert(P3); assert(P4); assert(P5)

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
  x = 0; y = 0; h_cnt = 0; t = 0; gm = 0; em = 0; i1 = 0; i2 = 0;
  CHECK_PROPS
}

/* ------------------------------ node steps ------------------------------ */

#define GHOST_GRANT(c,n) \
    if \
    :: DEAD(c) -> skip \
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

/* a reader leaves node n: the mark goes with the last reader */
#define LEAVE(n, c) \
    R[n] = R[n] & ~(1 << (c)); \
    if :: R[n] == 0 && K[n] == MARK -> K[n] = 0 :: else fi;

#ifdef OWN_COUNTER
#define READER_COUNTER(n) G[n]
#else
#define READER_COUNTER(n) F[n]
#endif
#ifdef NO_MARK
#define READER_MARKS(n)
#define READER_MAY(n) (K[n] == 0 || K[n] == MARK || R[n] != 0)
#else
#define READER_MARKS(n) K[n] = MARK;
#define READER_MAY(n) (K[n] == 0 || K[n] == MARK)
#endif

inline deliverAcq(c, n, SEEN)
{
  d_step {
    B(pendAcq[c], n) && (SEEN == 0 || phase[c] == ACQ) ->
    pendAcq[c] = pendAcq[c] ^ (1 << n);
    if
    :: !reader[c] && K[n] == 0 ->
       K[n] = c + 1; F[n] = F[n] + 1; t = F[n]
    :: reader[c] && READER_MAY(n) ->
       R[n] = R[n] | (1 << c); READER_MARKS(n)
       READER_COUNTER(n) = READER_COUNTER(n) + 1; t = READER_COUNTER(n)
    :: else -> t = 0
    fi;
    if
    :: t > 0 ->
       GHOST_GRANT(c, n)
       if
       :: SEEN ->
          gSeen[c] = gSeen[c] | (1 << n);
          if
          :: t > tMax[c] -> tMax[c] = t; eSeen[c] = (1 << n)
          :: t == tMax[c] -> eSeen[c] = eSeen[c] | (1 << n)
          :: else
          fi;
          printf("EV: node %d grants c%d (reader=%d): %d (seen)\n", n, c, reader[c], t)
       :: else ->
          printf("EV: node %d grants c%d (reader=%d): %d (not seen)\n", n, c, reader[c], t)
       fi
    :: else ->
       printf("EV: node %d refuses c%d\n", n, c);
       pendCom[c] = pendCom[c] & (ALLN ^ (1 << n)); tidy(c)
    fi;
    stepEnd()
  }
}

#ifdef QUEUE
/* the fair queue (writers first): a free lock refused */
inline queueRefuse(c, n)
{
  d_step {
    B(pendAcq[c], n) && (K[n] == 0 || reader[c] && K[n] == MARK) ->
    pendAcq[c] = pendAcq[c] ^ (1 << n);
    printf("EV: node %d refuses c%d (a waiter is ahead)\n", n, c);
    pendCom[c] = pendCom[c] & (ALLN ^ (1 << n)); tidy(c);
    stepEnd()
  }
}
#define QUEUED(c) :: queueRefuse(c,0) :: queueRefuse(c,1) :: queueRefuse(c,2)
#else
#define QUEUED(c)
#endif

inline deliverCom(c, n, SEEN)
{
  d_step {
    B(pendCom[c], n) && (SEEN == 0 || phase[c] == COM) ->
    pendCom[c] = pendCom[c] ^ (1 << n);
    if
    :: !HOLDS(n, c) -> printf("EV: node %d commit c%d -> 0\n", n, c)
    :: HOLDS(n, c) && reader[c] && READER_COUNTER(n) > tok[c] -> printf("EV: node %d commit c%d -> -1\n", n, c)
    :: HOLDS(n, c) && !reader[c] && F[n] > tok[c] -> printf("EV: node %d commit c%d -> -1\n", n, c)
    :: else ->
       if
       :: reader[c] && READER_COUNTER(n) < tok[c] -> READER_COUNTER(n) = tok[c]
       :: !reader[c] && F[n] < tok[c] -> F[n] = tok[c]
       :: else
       fi;
       if :: SEEN -> comSeen[c] = comSeen[c] | (1 << n) :: else fi;
       printf("EV: node %d commit c%d -> 1 (seen=%d)\n", n, c, SEEN)
    fi;
    tidy(c);
    stepEnd()
  }
}

/* c's hold on node n lapses: a writer's key, or a reader's entry */
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
    printf("EV: c%d's hold on node %d expires\n", c, n);
    if
    :: reader[c] -> LEAVE(n, c)
    :: else -> K[n] = 0
    fi;
    normC(c);
    stepEnd()
  }
}

#ifdef RESTARTS_ON
/* a third attempt that reads node n and is in use (none with 2 attempts): a line of its own starting with && inside
 * the #if would not parse */
#if NC > 2
#define READER2_IN_USE(n) (B(R[n],2) && phase[2] == USE)
#else
#define READER2_IN_USE(n) false
#endif

inline restart(n)
{
  d_step {
#if defined(RESTART_FLOOR)
    restarts < 1 -> restarts++;
    F[n] = F[n] + 1;
#elif defined(RESTART_DURABLE)
    (K[n] != 0 || R[n] != 0) ->
#elif defined(RESTART_DELAYED)
#ifdef TIMING_FAULTS
    (K[n] != 0 || R[n] != 0 || F[n] != 0) ->
#else
    (K[n] != 0 || R[n] != 0 || F[n] != 0) &&
    (K[n] == 0 || K[n] == MARK || phase[K[n] - 1] != USE) &&
    !(B(R[n],0) && phase[0] == USE) && !(B(R[n],1) && phase[1] == USE) && !READER2_IN_USE(n)
    ->
    x = 0;
    do
    :: x < NC ->
       if :: HOLDS(n, x) && (phase[x] == ACQ || phase[x] == COM) -> expired = expired | (1 << x) :: else fi; x++
    :: else -> break
    od;
#endif
    F[n] = 0;
#else
    (K[n] != 0 || R[n] != 0 || F[n] != 0) ->
    F[n] = 0;
#endif
    printf("EV: node %d restarts, F=%d\n", n, F[n]);
    K[n] = 0; R[n] = 0;
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
  x = 0;
  do
  :: x < NN ->
     if
     :: reader[c] && B(R[x], c) -> LEAVE(x, c)
     :: !reader[c] && K[x] == c + 1 -> K[x] = 0
     :: else
     fi; x++
  :: else -> break
  od
}

inline begin(c, READS)
{
  d_step {
#ifdef FIRST_WRITES
    phase[c] == IDLE && (c != 0 || !READS) ->
#else
    phase[c] == IDLE ->
#endif
    reader[c] = READS;
    y = 0;
    do
    :: y < NC ->
       if :: USABLE(y) -> precB = precB | (1 << (y*NC + c)) :: else fi; y++
    :: else -> break
    od;
    phase[c] = ACQ; pendAcq[c] = ALLN;
    printf("EV: c%d begins acquiring (reader=%d)\n", c, READS);
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

/* a fenced operation of c at the storage: a writer's write, a reader's read
   (which raises the mark as a write does) */
inline write(c)
{
  d_step {
    phase[c] == USE ->
    if
    :: tok[c] > hw || (tok[c] == hw && owner == c + 1) ->
       y = 0;
       do
       :: y < NC ->
          if :: y != c && B(wrote, y) && WPAIR(c, y) && PREC(c, y) -> staleBad = 1 :: else fi; y++
       :: else -> break
       od;
       hw = tok[c]; owner = c + 1; wrote = wrote | (1 << c);
       printf("EV: storage accepts c%d, token %d\n", c, tok[c])
    :: else ->
       printf("EV: storage refuses c%d, token %d (hw=%d)\n", c, tok[c], hw)
    fi;
    stepEnd()
  }
}

/* ------------------------------- system ------------------------------- */

#define CLIENT(c) \
  :: begin(c, 0) :: begin(c, 1) \
  :: decide(c) :: getLease(c) :: giveUp(c) :: endLease(c) :: write(c) \
  :: deliverAcq(c,0,1) :: deliverAcq(c,1,1) :: deliverAcq(c,2,1) \
  :: deliverAcq(c,0,0) :: deliverAcq(c,1,0) :: deliverAcq(c,2,0) \
  QUEUED(c) \
  :: deliverCom(c,0,1) :: deliverCom(c,1,1) :: deliverCom(c,2,1) \
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
