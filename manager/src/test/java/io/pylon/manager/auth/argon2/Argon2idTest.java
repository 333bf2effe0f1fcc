package io.pylon.manager.auth.argon2;

import com.password4j.Argon2Function;
import com.password4j.types.Argon2;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
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

        byte[] tag = new PooledArgon2id(cost, 1).hash(cost, filled(32, 1), filled(16, 2), filled(8, 3), filled(12, 4),
                32);

        assertThat(HexFormat.of().formatHex(tag))
                .isEqualTo("0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659");
    }

    @Test
    void randomPasswordsSaltsAndCostsGiveTheSameHashesAsPassword4j() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        PooledArgon2id argon2id = new PooledArgon2id(new Argon2Cost(2048, 1, 1), 2);
        for (int round = 0; round < 50; round++) {
            int parallelism = 1 + random.nextInt(4);
            int memory = Math.max(8 * parallelism, 8 + random.nextInt(2041));
            int iterations = 1 + random.nextInt(4);
            byte[] password = new byte[random.nextInt(40)];
            byte[] salt = new byte[8 + random.nextInt(25)];
            random.nextBytes(password);
            random.nextBytes(salt);

            byte[] ours = argon2id.hash(new Argon2Cost(memory, iterations, parallelism), password, salt, 32);
            byte[] theirs = Argon2Function.getInstance(memory, iterations, parallelism, 32, Argon2.ID)
                    .hash(password, salt).getBytes();

            assertThat(ours).as("seed %d round %d: m=%d t=%d p=%d", seed, round, memory, iterations, parallelism)
                    .isEqualTo(theirs);
        }
    }

    @Test
    void tagsOfOtherLengthsMatchPassword4jToo() {
        byte[] salt = filled(16, 7);
        Argon2Cost cost = new Argon2Cost(64, 1, 1);
        PooledArgon2id argon2id = new PooledArgon2id(cost, 1);
        for (int length : new int[] {4, 16, 64, 65, 100}) {
            byte[] ours = argon2id.hash(cost, filled(5, 9), salt, length);
            byte[] theirs = Argon2Function.getInstance(64, 1, 1, length, Argon2.ID).hash(filled(5, 9), salt).getBytes();
            assertThat(ours).as("length %d", length).isEqualTo(theirs);
        }
    }

    @Test
    void aCostlierHashThanThePoolKeepsGivesTheSameTag() {
        Argon2Cost usual = new Argon2Cost(64, 1, 1);
        Argon2Cost costlier = new Argon2Cost(8192, 1, 1);
        byte[] password = filled(8, 'p');
        byte[] salt = filled(16, 's');
        PooledArgon2id argon2id = new PooledArgon2id(usual, 1);
        argon2id.hash(usual, password, salt, 32);

        byte[] once = argon2id.hash(costlier, password, salt, 32);

        assertThat(once).isEqualTo(Argon2Function.getInstance(8192, 1, 1, 32, Argon2.ID).hash(password, salt).getBytes());
        assertThat(argon2id.keptBlocks()).isEqualTo(64 + 4);
    }

    @Test
    void aHashWithTheBlocksInThePoolAllocatesLittleMoreThanTheirReferences() {
        Argon2Cost cost = new Argon2Cost(19456, 2, 1);
        byte[] password = filled(20, 'p');
        byte[] salt = filled(16, 's');
        PooledArgon2id argon2id = new PooledArgon2id(cost, 1);
        for (int i = 0; i < 3; i++) {
            argon2id.hash(cost, password, salt, 32);
        }

        long ours = allocatedBy(() -> argon2id.hash(cost, password, salt, 32));
        // the same probe sees password4j's per-block garbage, so a pass below is not a blind meter
        long theirs = allocatedBy(() -> Argon2Function.getInstance(19456, 2, 1, 32, Argon2.ID).hash(password, salt));

        assertThat(ours).as("an array of 19460 block references and small change").isLessThan(256 * 1024);
        assertThat(theirs).isGreaterThan(19L * 1024 * 1024);
    }

    private static long allocatedBy(Runnable task) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        task.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    /** What PooledArgon2id relies on: Bouncy Castle gives every block back to the pool wiped. */
    @Test
    void everyBlockGoesBackToThePoolWiped() throws Exception {
        Field words = Argon2BytesGenerator.Block.class.getDeclaredField("v");
        words.setAccessible(true);
        List<Argon2BytesGenerator.Block> returned = new ArrayList<>();
        Argon2BytesGenerator.BlockPool recording = new Argon2BytesGenerator.BlockPool() {
            @Override
            public Argon2BytesGenerator.Block allocate() {
                return new Argon2BytesGenerator.Block();
            }

            @Override
            public void deallocate(Argon2BytesGenerator.Block block) {
                returned.add(block);
            }
        };
        Argon2BytesGenerator generator = new Argon2BytesGenerator();
        generator.init(new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
                .withVersion(Argon2Parameters.ARGON2_VERSION_13).withMemoryAsKB(64).withIterations(1)
                .withParallelism(2).withSalt(filled(8, 2)).withBlockPool(recording).build());

        generator.generateBytes(filled(8, 1), new byte[32]);

        assertThat(returned).hasSize(Argon2BytesGenerator.getBlockCount(64, 2));
        for (Argon2BytesGenerator.Block block : returned) {
            assertThat((long[]) words.get(block)).containsOnly(0L);
        }
    }

    @Test
    void invalidCostsSaltsAndTagsAreRefused() {
        assertThatThrownBy(() -> new Argon2Cost(15, 1, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Argon2Cost(64, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Argon2Cost(64, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        Argon2Cost cost = new Argon2Cost(8, 1, 1);
        PooledArgon2id argon2id = new PooledArgon2id(cost, 1);
        assertThatThrownBy(() -> argon2id.hash(cost, new byte[1], new byte[7], 32))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> argon2id.hash(cost, new byte[1], new byte[8], 3))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PooledArgon2id(cost, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
