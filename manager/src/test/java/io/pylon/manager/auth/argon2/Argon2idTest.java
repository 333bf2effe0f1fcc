package io.pylon.manager.auth.argon2;

import com.password4j.Argon2Function;
import com.password4j.types.Argon2;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class Argon2idTest {
    private static byte[] filled(int length, int value) {
        byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) value);
        return bytes;
    }

    @Test
    void theRfc9106Section53TestVectorWithSecretAndAssociatedData() {
        Argon2Cost cost = new Argon2Cost(32, 3, 4);
        byte[] tag = new byte[32];

        new Argon2id().hash(new long[(int) cost.memoryLongs()], cost, filled(32, 1), filled(16, 2), filled(8, 3),
                filled(12, 4), tag);

        assertThat(HexFormat.of().formatHex(tag))
                .isEqualTo("0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659");
    }

    @Test
    void randomPasswordsSaltsAndCostsGiveTheSameHashesAsPassword4j() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        for (int round = 0; round < 50; round++) {
            int parallelism = 1 + random.nextInt(4);
            int memory = Math.max(8 * parallelism, 8 + random.nextInt(2041));
            int iterations = 1 + random.nextInt(4);
            byte[] password = new byte[random.nextInt(40)];
            byte[] salt = new byte[8 + random.nextInt(25)];
            random.nextBytes(password);
            random.nextBytes(salt);

            byte[] ours = ThreadLocalArgon2id.hash(new Argon2Cost(memory, iterations, parallelism), password, salt, 32);
            byte[] theirs = Argon2Function.getInstance(memory, iterations, parallelism, 32, Argon2.ID)
                    .hash(password, salt).getBytes();

            assertThat(ours).as("seed %d round %d: m=%d t=%d p=%d", seed, round, memory, iterations, parallelism)
                    .isEqualTo(theirs);
        }
    }

    @Test
    void tagsOfOtherLengthsMatchPassword4jToo() {
        byte[] salt = filled(16, 7);
        for (int length : new int[] {4, 16, 64, 65, 100}) {
            byte[] ours = ThreadLocalArgon2id.hash(new Argon2Cost(64, 1, 1), filled(5, 9), salt, length);
            byte[] theirs = Argon2Function.getInstance(64, 1, 1, length, Argon2.ID).hash(filled(5, 9), salt).getBytes();
            assertThat(ours).as("length %d", length).isEqualTo(theirs);
        }
    }

    @Test
    void aCostlierHashWithoutKeepingGivesTheSameTagAndLeavesTheHeldMemoryAsItWas() {
        Argon2Cost usual = new Argon2Cost(64, 1, 1);
        Argon2Cost costlier = new Argon2Cost(32768, 1, 1);   // more than any other test of this class holds
        byte[] password = filled(8, 'p');
        byte[] salt = filled(16, 's');
        ThreadLocalArgon2id.hash(usual, password, salt, 32);
        long held = ThreadLocalArgon2id.heldLongs();

        byte[] once = ThreadLocalArgon2id.hashWithoutKeeping(costlier, password, salt, 32);

        assertThat(ThreadLocalArgon2id.heldLongs()).isEqualTo(held).isLessThan(costlier.memoryLongs());
        assertThat(once).isEqualTo(Argon2Function.getInstance(32768, 1, 1, 32, Argon2.ID).hash(password, salt).getBytes());
    }

    @Test
    void aHashOnAThreadThatHoldsItsMemoryAllocatesAlmostNothing() {
        Argon2Cost cost = new Argon2Cost(19456, 2, 1);
        byte[] password = filled(20, 'p');
        byte[] salt = filled(16, 's');
        for (int i = 0; i < 3; i++) {
            ThreadLocalArgon2id.hash(cost, password, salt, 32);
        }

        long ours = allocatedBy(() -> ThreadLocalArgon2id.hash(cost, password, salt, 32));
        // the same probe sees password4j's per-block garbage, so a pass below is not a blind meter
        long theirs = allocatedBy(() -> Argon2Function.getInstance(19456, 2, 1, 32, Argon2.ID).hash(password, salt));

        assertThat(ours).isLessThan(64 * 1024);
        assertThat(theirs).isGreaterThan(19L * 1024 * 1024);
    }

    private static long allocatedBy(Runnable task) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        task.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    @Test
    void theMemoryIsWipedAfterAHash() {
        Argon2Cost cost = new Argon2Cost(64, 1, 2);
        int used = (int) cost.memoryLongs();
        long[] memory = new long[used + 128];
        Arrays.fill(memory, used, memory.length, 42L);

        new Argon2id().hash(memory, cost, filled(8, 1), filled(8, 2), new byte[0], new byte[0], new byte[32]);

        assertThat(Arrays.stream(memory, 0, used).allMatch(word -> word == 0)).isTrue();
        assertThat(Arrays.stream(memory, used, memory.length).allMatch(word -> word == 42))
                .as("beyond the hash's blocks the array is not touched").isTrue();
    }

    @Test
    void invalidCostsSaltsTagsAndMemoryAreRefused() {
        assertThatThrownBy(() -> new Argon2Cost(15, 1, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Argon2Cost(64, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Argon2Cost(64, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        Argon2Cost cost = new Argon2Cost(8, 1, 1);
        Argon2id argon2id = new Argon2id();
        assertThatThrownBy(() -> argon2id.hash(new long[7 * 128], cost, new byte[1], new byte[8], new byte[0],
                new byte[0], new byte[32])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> argon2id.hash(new long[8 * 128], cost, new byte[1], new byte[7], new byte[0],
                new byte[0], new byte[32])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> argon2id.hash(new long[8 * 128], cost, new byte[1], new byte[8], new byte[0],
                new byte[0], new byte[3])).isInstanceOf(IllegalArgumentException.class);
    }
}
