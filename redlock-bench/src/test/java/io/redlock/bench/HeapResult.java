package io.redlock.bench;

import java.util.List;

/**
 * The heap check: used heap after a full GC, sampled every {@code every} pairs; bounded if the last sample is at most
 * {@code boundBytes} above the first. Failed pairs are counted, with the first failure.
 */
record HeapResult(String contestant, long pairs, long every, int inFlight, List<Long> usedBytes, long boundBytes,
        long errors, String firstError) {

    HeapResult {
        usedBytes = List.copyOf(usedBytes);
    }

    long growthBytes() {
        return usedBytes.get(usedBytes.size() - 1) - usedBytes.get(0);
    }

    boolean bounded() {
        return growthBytes() <= boundBytes;
    }
}
