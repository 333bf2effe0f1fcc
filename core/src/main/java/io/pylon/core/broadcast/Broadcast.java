package io.pylon.core.broadcast;

import io.pylon.core.discovery.DiscoveredPod;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * One broadcast: every pod is asked in parallel on virtual threads (at most {@code maxInFlight} at a time), and the
 * answers are written in podName order. An answer that announces its length is read at once while the answers read
 * ahead stay within {@link #READ_AHEAD_BYTES} ({@link ReadAhead}); any other answer is read off its connection only
 * when its turn comes, so answers waiting for their turn stay in the sockets (the peer client applies back-pressure)
 * and the aggregator holds the read-ahead budget plus about one answer, however many pods answer megabytes.
 *
 * <p>Threading: one run per call, on the request's thread (the writer); its peer threads and the dispatching thread
 * are virtual threads of the run's own executor. A {@link PodCall}'s result and reservation are written by its peer
 * thread before the result's future completes and read by the writer after it.
 */
final class Broadcast {
    /** How long past the deadline the writer still waits for a call that should have ended by itself. */
    private static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    /** The answers read before their turn, at most: `jvm` of 300 pods, one of the largest thread dumps. */
    static final int READ_AHEAD_BYTES = 1024 * 1024;

    private final PeerClient client;
    private final BroadcastLimits limits;
    private final BroadcastMeters meters;

    /** This pod's own answer, built in-process. */
    interface SelfAnswer {
        byte[] answer() throws PodFailedException;
    }

    /**
     * @param name          the diagnostics name, which decides the per-pod timeout
     * @param authorization the caller's Authorization value, passed on to every pod
     * @param uris          where each peer is asked
     */
    record Call(String method, String name, @Nullable String authorization, Function<DiscoveredPod, URI> uris) {
        Call(String name, String authorization, Function<DiscoveredPod, URI> uris) {
            this("GET", name, authorization, uris);
        }
    }

    Broadcast(PeerClient client, BroadcastLimits limits, BroadcastMeters meters) {
        this.client = client;
        this.limits = limits;
        this.meters = meters;
    }

    /** Hands one outcome per pod, sorted by podName, to {@code writer} (already started). */
    void run(List<DiscoveredPod> discovered, String selfName, SelfAnswer self, Call request, PodAnswers writer)
            throws IOException {
        long deadline = System.nanoTime() + limits.deadline().toNanos();
        Duration podTimeout = limits.podTimeout(request.name());
        List<PodCall> calls = discovered.stream().sorted(Comparator.comparing(DiscoveredPod::podName)).map(PodCall::new).toList();
        ExecutorService threads = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("pylon-broadcast-", 0).factory());
        ReadAhead readAhead = new ReadAhead(READ_AHEAD_BYTES);
        meters.asked(calls.size());
        try {
            threads.execute(() -> dispatch(calls, selfName, self, request, podTimeout, deadline, threads, readAhead));
            for (PodCall call : calls) {
                call.turn.countDown();
                PodResult result = call.await(deadline + GRACE_NANOS, limits.deadline());
                call.forget();
                byte[] answer = result.answer();
                if (answer != null) {
                    meters.answered(answer.length);
                    writer.answered(answer);
                    readAhead.release(call.reserved);
                } else {
                    PodFailure failure = result.failureOfUnanswered();
                    meters.failed(failure);
                    writer.failed(call.pod, failure);
                }
            }
        } finally {
            // calls still running here are past the deadline, or the client went away: stop them
            threads.shutdownNow();
        }
    }

    private void dispatch(List<PodCall> calls, String selfName, SelfAnswer self, Call request, Duration podTimeout,
                          long deadline, ExecutorService threads, ReadAhead readAhead) {
        Semaphore slots = new Semaphore(limits.maxInFlight());
        for (PodCall call : calls) {
            DiscoveredPod pod = call.pod;
            if (pod.podName().equals(selfName)) {
                threads.execute(() -> call.complete(answerSelf(self)));
                continue;
            }
            if (!pod.isCallable()) {
                call.complete(PodResult.failed(new PodFailure(503, pod.unavailable())));
                continue;
            }
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !slots.tryAcquire(left, TimeUnit.NANOSECONDS)) {
                    call.complete(PodResult.failed(notAsked()));
                    continue;
                }
            } catch (InterruptedException e) {
                calls.forEach(c -> c.complete(PodResult.failed(notAsked())));
                return;
            }
            Duration timeout = Duration.ofNanos(Math.max(1, Math.min(podTimeout.toNanos(), deadline - System.nanoTime())));
            threads.execute(() -> {
                PodResult result;
                try {
                    result = ask(call, request, request.uris().apply(pod), timeout, podTimeout, deadline, readAhead);
                } catch (RuntimeException e) {
                    result = PodResult.failed(PodFailure.of(e, timeout));
                } finally {
                    slots.release();
                }
                call.complete(result);
            });
        }
    }

    private PodFailure notAsked() {
        return new PodFailure(504, "not asked: the broadcast deadline of " + limits.deadline().toMillis() + " ms passed");
    }

    private static PodResult answerSelf(SelfAnswer self) {
        try {
            return PodResult.answered(self.answer());
        } catch (PodFailedException e) {
            return PodResult.failed(e.failure());
        } catch (RuntimeException e) {
            return PodResult.failed(new PodFailure(500, "this pod's answer failed: " + e.getClass().getSimpleName()));
        }
    }

    private PodResult ask(PodCall call, Call request, URI uri, Duration timeout, Duration podTimeout, long deadline,
                          ReadAhead readAhead) {
        long reserved = 0;
        boolean timedOut = false;
        try (PeerClient.Response response = client.request(request.method(), uri, request.authorization(), null, timeout)) {
            InputStream body = response.body();
            if (response.status() != 200) {
                return PodResult.failed(PeerErrors.of(response.status(), body));
            }
            long length = response.contentLength();
            if (length > limits.maxAnswerBytes()) {
                return PodResult.failed(PodFailure.malformed(AnswerReader.tooLarge(limits.maxAnswerBytes())));
            }
            if (readAhead.tryReserve(length)) {
                reserved = length;
            } else {
                call.turn.await();
            }
            long budget = Math.min(podTimeout.toNanos(), deadline - System.nanoTime());
            if (budget <= 0) {
                return PodResult.failed(PodFailure.timeout(podTimeout));
            }
            try (ReadWatchdog.Guard guard = ReadWatchdog.guard(budget)) {
                try {
                    PodResult answered = PodResult.answered(AnswerReader.readObject(body, length, limits.maxAnswerBytes()));
                    call.reserved = reserved;
                    reserved = 0;
                    return answered;
                } finally {
                    timedOut = guard.expired();
                }
            }
        } catch (PodFailedException e) {
            return PodResult.failed(e.failure());
        } catch (IOException | RuntimeException e) {
            return PodResult.failed(timedOut ? PodFailure.timeout(podTimeout) : PodFailure.of(e, timeout));
        } catch (InterruptedException e) {
            return PodResult.failed(PodFailure.timeout(podTimeout));
        } finally {
            readAhead.release(reserved);
        }
    }

    /** One pod's place in the aggregate: its result when known, and the signal that its turn to be read has come. */
    private static final class PodCall {
        final DiscoveredPod pod;
        final CountDownLatch turn = new CountDownLatch(1);
        /** Read-ahead bytes this pod's answer holds until it is written; set before the result completes. */
        long reserved;
        /** Stands for a result already written, so that written answers are garbage at once. */
        private static final CompletableFuture<PodResult> WRITTEN = CompletableFuture.completedFuture(null);

        private volatile CompletableFuture<PodResult> result = new CompletableFuture<>();

        PodCall(DiscoveredPod pod) {
            this.pod = pod;
        }

        void complete(PodResult value) {
            result.complete(value);
        }

        void forget() {
            result = WRITTEN;
        }

        PodResult await(long untilNanos, Duration deadline) {
            try {
                return result.get(Math.max(0, untilNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                return PodResult.failed(new PodFailure(504, "no answer within the broadcast deadline of "
                        + deadline.toMillis() + " ms"));
            } catch (ExecutionException e) {
                return PodResult.failed(PodFailure.of(e.getCause() != null ? e.getCause() : e, deadline));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return PodResult.failed(PodFailure.timeout(deadline));
            }
        }
    }
}
