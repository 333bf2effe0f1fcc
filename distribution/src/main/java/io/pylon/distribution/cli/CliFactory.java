package io.pylon.distribution.cli;

import picocli.CommandLine;

import java.lang.reflect.Constructor;

/** Creates commands that take the {@link CliIo} in their constructor; everything else the picocli way. */
public final class CliFactory implements CommandLine.IFactory {
    private final CliIo io;

    public CliFactory(CliIo io) {
        this.io = io;
    }

    @Override
    public <K> K create(Class<K> type) throws Exception {
        try {
            Constructor<K> constructor = type.getDeclaredConstructor(CliIo.class);
            return constructor.newInstance(io);
        } catch (NoSuchMethodException e) {
            return CommandLine.defaultFactory().create(type);
        }
    }
}
