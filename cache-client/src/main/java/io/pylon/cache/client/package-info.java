package io.pylon.cache.client;
