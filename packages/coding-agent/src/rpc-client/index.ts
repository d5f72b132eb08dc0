export { RpcClient, type RpcClientOptions, type RpcEventListener, type RpcExtensionUIListener } from "./rpc-client.js";
