import { type INestApplicationContext } from '@nestjs/common';
import {
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  INTERCEPTORS_METADATA,
  PIPES_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { ApplicationConfig, ModulesContainer } from '@nestjs/core';
import { RpcErrorFilter } from '../rpc-error.filter';
import { type HandledMessage, handledMessages } from './handle-message';
import { type NamespacedServerNats } from './namespaced-transport';

const enhancers = [GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA, EXCEPTION_FILTERS_METADATA];

/**
 * Whether Nest's pipeline would do nothing for `app`'s messages beyond what the direct call does:
 * no global guard, interceptor or pipe, and no filter but `RpcErrorFilter` (whose answer the direct
 * call gives). The configuration is read where Nest keeps it (an application's `config`, a
 * microservice's `applicationConfig`); an app whose configuration cannot be read keeps Nest's pipeline.
 */
function plainPipeline(app: INestApplicationContext): boolean {
  const holder = app as unknown as { config?: unknown; applicationConfig?: unknown };
  const config = [holder.config, holder.applicationConfig].find(
    (c): c is ApplicationConfig => c instanceof ApplicationConfig,
  );
  if (!config) return false;
  return (
    config.getGlobalGuards().length === 0 &&
    config.getGlobalRequestGuards().length === 0 &&
    config.getGlobalInterceptors().length === 0 &&
    config.getGlobalRequestInterceptors().length === 0 &&
    config.getGlobalPipes().length === 0 &&
    config.getGlobalRequestPipes().length === 0 &&
    config.getGlobalRequestFilters().length === 0 &&
    config.getGlobalFilters().every((filter) => filter instanceof RpcErrorFilter)
  );
}

/** Whether the method has only what `HandleMessage` gives it: no enhancer, one parameter (the payload). */
function plainMethod({ controller, key }: HandledMessage): boolean {
  const method = (controller.prototype as Record<string | symbol, unknown>)[key] as object;
  if (enhancers.some((k) => Reflect.getMetadata(k, controller) || Reflect.getMetadata(k, method)))
    return false;
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, key) ?? {}) as object;
  return Object.keys(args).length === 1;
}

/**
 * The controllers of `app` that Nest made once, by class. Read from its modules rather than with
 * `app.get`, which for a class the app does not have throws, and in an app created with
 * `abortOnError` (Nest's default) ends the process.
 */
function singletonControllers(app: INestApplicationContext): Map<unknown, unknown> {
  const controllers = new Map<unknown, unknown>();
  for (const moduleRef of app.get(ModulesContainer).values()) {
    for (const wrapper of moduleRef.controllers.values()) {
      if (wrapper.isDependencyTreeStatic() && !wrapper.isTransient && wrapper.instance)
        controllers.set(wrapper.metatype, wrapper.instance);
    }
  }
  return controllers;
}

/**
 * Has `server` call the `HandleMessage` methods of `app`'s controllers itself, with the payload
 * checked by the same schema (NamespacedServerNats.handleDirectly). Methods Nest would treat
 * otherwise (an enhancer of their own or of the app, a parameter other than the payload, a
 * controller made per request) stay with Nest.
 */
export function dispatchDirectly(app: INestApplicationContext, server: NamespacedServerNats): void {
  if (!plainPipeline(app)) return;
  const controllers = singletonControllers(app);
  for (const handled of handledMessages()) {
    const instance = controllers.get(handled.controller) as
      Record<string | symbol, (payload: unknown) => unknown> | undefined;
    if (!instance || !plainMethod(handled)) continue;
    const { key, pipe } = handled;
    server.handleDirectly(handled.message.subject, (payload) => instance[key](pipe.transform(payload)));
  }
}
