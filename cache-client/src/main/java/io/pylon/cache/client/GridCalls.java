package io.pylon.cache.client;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Runs one grid operation for a caller: refused at once unless the client is connected, bounded by the operation
 * timeout, and every failure turned into {@link GridUnavailableException}. Counts outcomes for {@link GridClient#describe()}.
 *
 * <p>Threading: called concurrently by request threads; the outcome counters are adders and the last failure a
 * volatile field (the latest writer wins), read by {@code describe} from any thread.
 */
final class GridCalls {
    private final Supplier<ConnectionStatus> status;
    private final long timeoutNanos;
    final LongAdder succeeded = new LongAdder();
    final LongAdder failed = new LongAdder();
    final LongAdder refused = new LongAdder();
    private volatile @Nullable String lastFailure;

    GridCalls(Supplier<ConnectionStatus> status, Duration timeout) {
        this.status = status;
        this.timeoutNanos = timeout.toNanos();
    }

    <T> T await(String operation, Supplier<? extends CompletionStage<T>> call) {
        CompletableFuture<T> future = start(operation, call);
        try {
            T value = future.get(timeoutNanos, TimeUnit.NANOSECONDS);
            succeeded.increment();
            return value;
        } catch (TimeoutException e) {
            future.cancel(false);
            throw failure(operation, "took longer than " + timeoutMillis() + " ms", e);
        } catch (ExecutionException e) {
            throw failure(operation, describe(e.getCause()), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure(operation, "interrupted", e);
        }
    }

    <T> CompletableFuture<T> async(String operation, Supplier<? extends CompletionStage<T>> call) {
        CompletionStage<T> stage;
        try {
            stage = startStage(operation, call);
        } catch (GridUnavailableException e) {
            return CompletableFuture.failedFuture(e);
        }
        // Completed on Hazelcast's response thread (the callbacks are tiny). Hazelcast's default executor for
        // dependent stages starts a new thread per callback on machines with fewer than three processors.
        CompletableFuture<T> result = new CompletableFuture<>();
        stage.whenCompleteAsync((value, error) -> {
            if (error == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(error);
            }
        }, Runnable::run);
        return result.orTimeout(timeoutNanos, TimeUnit.NANOSECONDS).handle((value, error) -> {
            if (error == null) {
                succeeded.increment();
                return value;
            }
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            String reason = cause instanceof TimeoutException ? "took longer than " + timeoutMillis() + " ms" : describe(cause);
            throw failure(operation, reason, cause);
        });
    }

    private <T> CompletableFuture<T> start(String operation, Supplier<? extends CompletionStage<T>> call) {
        return startStage(operation, call).toCompletableFuture();
    }

    private <T> CompletionStage<T> startStage(String operation, Supplier<? extends CompletionStage<T>> call) {
        ConnectionStatus current = status.get();
        if (current.state() != ConnectionState.CONNECTED) {
            refused.increment();
            throw new GridUnavailableException("data grid " + current.state().name().toLowerCase(Locale.ROOT)
                    + " since " + current.since() + "; " + operation + " not attempted");
        }
        try {
            return call.get();
        } catch (RuntimeException e) {
            throw failure(operation, describe(e), e);
        }
    }

    private GridUnavailableException failure(String operation, String reason, @Nullable Throwable cause) {
        failed.increment();
        lastFailure = reason;
        return new GridUnavailableException(operation + " failed: " + reason, cause);
    }

    // The exception type only: Hazelcast messages may name internal addresses and are long.
    private static String describe(@Nullable Throwable t) {
        return t == null ? "unknown error" : t.getClass().getSimpleName();
    }

    long timeoutMillis() {
        return TimeUnit.NANOSECONDS.toMillis(timeoutNanos);
    }

    @Nullable String lastFailure() {
        return lastFailure;
    }
}
