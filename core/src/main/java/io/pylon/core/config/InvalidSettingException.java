package io.pylon.core.config;

/** A setting has a value that does not parse. The message names the setting and what it expects, never a secret value. */
public final class InvalidSettingException extends RuntimeException {
    public InvalidSettingException(String message) {
        super(message, null, false, false);
    }
}
