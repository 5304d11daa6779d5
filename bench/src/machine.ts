import { cpus, totalmem } from 'node:os';

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  date: string;
}

export function machineFacts(): Machine {
  const cores = cpus();
  return {
    cores: cores.length,
    cpuModel: cores[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    date: new Date().toISOString(),
  };
}
