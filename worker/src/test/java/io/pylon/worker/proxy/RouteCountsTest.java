package io.pylon.worker.proxy;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RouteCountsTest {
    @Test
    void aKeyKeepsItsGroupAndGroupsNeitherOverlapNorSpanTwoChunks() {
        RouteCounts counts = new RouteCounts(5);
        Set<Integer> slots = new HashSet<>();
        for (int key = 0; key < 1000; key++) {
            int start = counts.group("route-" + key);
            assertThat(start / 1024).as("group of key %d", key).isEqualTo((start + 4) / 1024);
            for (int i = 0; i < 5; i++) {
                assertThat(slots.add(start + i)).as("slot %d given twice", start + i).isTrue();
            }
        }
        assertThat(counts.group("route-7")).isEqualTo(counts.group("route-7"));
    }

    @Test
    void addReturnsTheCountBeforeSoThatTheFirstUseIsSeenOnce() {
        RouteCounts counts = new RouteCounts(3);
        int first = counts.group("a");
        int other = counts.group("b");
        assertThat(counts.add(first + 2)).isZero();
        assertThat(counts.add(first + 2)).isEqualTo(1);
        for (int i = 0; i < 2000; i++) {
            counts.group("more-" + i); // storage grows under the counts already made
        }
        assertThat(counts.get(first + 2)).isEqualTo(2);
        assertThat(counts.get(other + 2)).isZero();
    }

    @Test
    void aGroupWiderThanAChunkIsRefused() {
        assertThatThrownBy(() -> new RouteCounts(1025)).isInstanceOf(IllegalArgumentException.class);
    }
}
