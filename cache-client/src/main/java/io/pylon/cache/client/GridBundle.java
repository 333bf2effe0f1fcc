package io.pylon.cache.client;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;

import java.io.IOException;

/**
 * An environment's gateway bundle as the Manager keeps it in {@link GridMaps#GATEWAY_BUNDLES}: its version, the
 * SHA-256 of its bytes (the bundle's identity, the Manager's ETag), a seal over both (see {@link BundleSeal}) and
 * the canonical JSON itself. A reader checks the seal and the hash before it trusts a byte of it.
 */
public final class GridBundle implements IdentifiedDataSerializable {
    private long version;
    private String sha256 = "";
    private String seal = "";
    private byte[] json = new byte[0];

    /** For deserialization. */
    public GridBundle() {
    }

    public GridBundle(long version, String sha256, String seal, byte[] json) {
        this.version = version;
        this.sha256 = sha256;
        this.seal = seal;
        this.json = json.clone();
    }

    public long version() {
        return version;
    }

    public String sha256() {
        return sha256;
    }

    public String seal() {
        return seal;
    }

    public byte[] json() {
        return json.clone();
    }

    public int size() {
        return json.length;
    }

    @Override
    public int getFactoryId() {
        return GridSerialization.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return GridSerialization.GRID_BUNDLE;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeLong(version);
        out.writeString(sha256);
        out.writeString(seal);
        out.writeByteArray(json);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        version = in.readLong();
        String hash = in.readString();
        String sealed = in.readString();
        byte[] bytes = in.readByteArray();
        sha256 = hash == null ? "" : hash;
        seal = sealed == null ? "" : sealed;
        json = bytes == null ? new byte[0] : bytes;
    }

    @Override
    public String toString() {
        return "GridBundle[version=" + version + ", sha256=" + sha256 + ", bytes=" + json.length + "]";
    }
}
